"""What a page shows that a reader cannot read whole: text cut off by its box, and words
broken inside (issue 44). Run in the page by :func:`problems`; the browser tests at 1280x800
and 1920x1080 fail on any.

- **cut**: an element that hides its overflow (``overflow: hidden``/``clip``, or an
  ellipsis) whose content is wider than its box, and a drop-down whose chosen option is
  wider than the drop-down;
- **broken**: a word (two characters or more) of a visible text laid out on two lines (a
  line may break after a hyphen or a slash, as typesetters do, and where the text marks a
  break on purpose: a soft hyphen, shown as a hyphen when the line breaks there, or a
  zero-width space); SVG text (the charts') is left out: it never breaks a line.
"""

from __future__ import annotations

from typing import Any

PROBLEMS = """
(root) => {
  const out = [];
  const scope = document.querySelector(root) || document.body;
  const visible = (el) => {
    const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'
      && el.offsetParent !== null;
  };
  const name = (el) => {
    const c = typeof el.className === 'string' ? el.className.split(/\\s+/)
      .filter(x => x.startsWith('nid') || x.startsWith('widget')).slice(0, 2).join('.') : '';
    return c || el.tagName.toLowerCase();
  };
  const canvas = document.createElement('canvas').getContext('2d');
  for (const el of scope.querySelectorAll('*')) {
    if (!visible(el)) continue;
    const s = getComputedStyle(el);
    if (el.tagName === 'SELECT') {
      const option = el.options[el.selectedIndex];
      if (!option) continue;
      canvas.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
      const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 16;
      if (canvas.measureText(option.text).width > room + 1)
        out.push({kind: 'cut', what: name(el), text: option.text});
      continue;
    }
    const hides = ['hidden', 'clip'].includes(s.overflowX) || s.textOverflow === 'ellipsis';
    if (!hides || ['auto', 'scroll'].includes(s.overflowY) && s.overflowX !== 'hidden') continue;
    const text = (el.innerText || '').trim();
    if (text && el.scrollWidth > el.clientWidth + 1)
      out.push({kind: 'cut', what: name(el), text: text.slice(0, 80)});
  }
  // One range for every word: each live Range slows every later DOM change of the page
  // (Chromium updates them all on each removal) until the garbage collector takes it.
  const range = document.createRange();
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const el = node.parentElement;
    // SVG text (the charts') never breaks a line by itself: a rotated axis title's letters
    // stand at different heights without being broken.
    if (!el || !visible(el) || el instanceof SVGElement) continue;
    const re = /[^\\s\\-\u2010\u2013\u2014\\/\u00ad\u200b]+/g; let m;
    while ((m = re.exec(node.textContent))) {
      if (m[0].length < 2) continue;
      // The word's first character on its own, then the rest: when a line breaks at a
      // soft hyphen, Chromium gives the hyphen it draws at the end of that line to the
      // range of the characters after it (a first rectangle on the line above), so the
      // first character counts by its last rectangle only.
      const rects = (from, to) => {
        range.setStart(node, from); range.setEnd(node, to);
        return Array.from(range.getClientRects()).filter(r => r.width > 0);
      };
      const first = rects(m.index, m.index + 1).slice(-1);
      const tops = new Set([...first, ...rects(m.index + 1, m.index + m[0].length)]
        .map(r => Math.round(r.top)));
      if (tops.size > 1) out.push({kind: 'broken', what: name(el), text: m[0]});
    }
  }
  range.collapse(true);
  return out;
}
"""


def problems(pw_page: Any, root: str = "body") -> list[dict[str, str]]:
    """Every cut text and broken word under ``root``, once each."""
    seen: set[tuple[str, str]] = set()
    out = []
    for p in pw_page.evaluate(PROBLEMS, root):
        key = (p["kind"], p["text"])
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out
