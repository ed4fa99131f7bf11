// The class's answers as a histogram against the exact value: the teacher page's and the
// projector view's (one script for both, with its style).
(function () {
  "use strict";
  var style = document.createElement("style");
  style.textContent = [
    ".chart { position: relative; height: 150px; border-bottom: 1px solid #555; margin: 44px 0 4px; display: flex; align-items: flex-end; gap: 3px; }",
    ".bar { flex: 1; background: #5dade2; position: relative; min-height: 0; }",
    ".bar span { position: absolute; top: -17px; width: 100%; text-align: center; font-size: 12px; }",
    ".exact { position: absolute; top: -40px; bottom: 0; border-left: 3px dashed #c0392b; }",
    ".exact span { position: absolute; top: 0; left: 4px; white-space: nowrap; color: #c0392b; font-size: 12px; font-weight: bold; }",
    ".axis { display: flex; gap: 3px; font-size: 11px; color: #555; }",
    ".axis div { flex: 1; text-align: left; margin-left: -1px; }"
  ].join("\n");
  document.head.appendChild(style);
  var text = function (value) {
    var d = document.createElement("div"); d.textContent = String(value); return d.innerHTML;
  };
  var number = function (v, kind) {
    if (v === null || v === undefined) { return "—"; }
    if (kind === "count") { return Math.round(v).toLocaleString("en"); }
    return Number(v).toFixed(kind === "probability" ? 2 : 2);
  };

  function chart(q) {
    var bins = q.bins, top = 1, i;
    if (!bins.length) { return ""; }
    for (i = 0; i < bins.length; i++) { top = Math.max(top, bins[i].count); }
    var low = bins[0].low, high = bins[bins.length - 1].high, bars = "", axis = "";
    for (i = 0; i < bins.length; i++) {
      var h = Math.round(100 * bins[i].count / top);
      // An end bin also holds the answers far beyond the range ("beyond"): said so.
      var beyond = bins[i].beyond ? " (" + bins[i].beyond + (i ? " far above)" : " far below)") : "";
      bars += "<div class='bar' title='" + number(bins[i].low, q.kind) + " to " +
        number(bins[i].high, q.kind) + ": " + bins[i].count + beyond + "' style='height:" + h + "%'>" +
        (bins[i].count ? "<span>" + bins[i].count + (bins[i].beyond ? "*" : "") + "</span>" : "") +
        "</div>";
      axis += "<div>" + (i === 0 && bins[i].beyond ? "≤ " : "") + number(bins[i].low, q.kind) + "</div>";
    }
    var marker = "";
    if (q.exact !== null && high > low) {
      var left = Math.max(0, Math.min(100, 100 * (q.exact - low) / (high - low)));
      marker = "<div class='exact' style='left:" + left + "%'><span>exact " +
        text(q.exact_text || number(q.exact, q.kind)) + " ≈ " + number(q.exact, q.kind) +
        "</span></div>";
    }
    return "<div class='chart'>" + bars + marker + "</div><div class='axis'>" + axis + "</div>";
  }


  window.nidChart = {text: text, number: number, chart: chart};
})();
