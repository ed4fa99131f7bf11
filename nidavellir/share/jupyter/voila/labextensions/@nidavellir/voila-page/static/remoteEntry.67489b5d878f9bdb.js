/* @nidavellir/voila-page: the lab's additions to Voila's page (docs/serving.md).
 *
 * A federated extension container written by hand (no build step): Voila loads it like any
 * prebuilt extension (window._JUPYTERLAB[name] with init(shareScope) and get(module)).
 *
 * 1. Heavy extensions load only when a page needs them. The server
 * (nidavellir/classroom/server/app.py) takes the extensions it defers out of the page's
 * "federated_extensions" and lists them in the page config option
 * "nidavellirDeferredExtensions" instead, each with
 *   {name, load, mimeExtension?, extension?, mimeTypes: [...], rank, widgets: [{name, version}]}.
 * For those, this container provides
 *   - "./mimeExtension": a renderer factory for each deferred mime type (plotly's
 *     application/vnd.plotly.v1+json). Its renderer loads the real extension the first time an
 *     output of that type is shown, then hands the output to the real renderer;
 *   - "./extension": a plugin that registers each deferred widget module (anywidget) with the
 *     widget manager, its exports a function that loads the real extension when the first
 *     widget of that module is created (ipywidgets awaits function exports).
 * A page that shows no chart never downloads plotly.js (4.8 MB).
 * The real plotly renderer is also made quiet. As written for JupyterLab, it draws every
 * chart twice (Plotly.react, then Plotly.redraw from its update request), draws it whole
 * again on every Lumino resize or update of the widgets around it (each click on a page of
 * widgets), and after each draw renders it once more into a PNG to keep in the notebook
 * (Plotly.toImage), which a Voila page never saves. Here a chart is drawn once, resized
 * (Plotly.Plots.resize) only when its box changed size, and no PNG is made: the browser
 * tests' layout walk went from 184 to 116 s of CPU with the same pages.
 *
 * 2. A widget found late is found. The page's first widget view may ask the manager
 * (get_model) for its model while the widget state is still on its way; the manager the
 * lab installs (jupyterlab_widgets 3.0.13, the one built against Voila's JupyterLab) then
 * gives up at once, and later releases after a 2 s wait without looking once more. The
 * view shows "Error displaying widget: model not found" for good (the manager counts as
 * restored by then). Seen on 6x throttled pages, as a slow laptop gets them. get_model
 * keeps looking for 2 s, every 100 ms, and once more at the end.
 *
 * 3. An answer lives in the page until the class's database has it (class mode,
 * widgets/classroom.py). The kernel's ClassOutbox widget has no view; its model here,
 * ClassOutboxModel, keeps every answer the kernel hands the page ("hold") in the browser's
 * localStorage, under nidavellir/class/<class key>/, until the kernel says the database has
 * it ("stored"); it keeps the student's id (made here: a reload is the same student) and
 * place (name, tab, lesson, step), and says "hello" to every kernel it meets with all of
 * that, so a new kernel restores the page and sends what the old one could not. It says
 * "beat" every 30 s (the teacher page counts the pages that are open).
 *
 * 4. A dead kernel is noticed. When the page's kernel dies (its status "dead", or
 * "restarting"), or its connection drops and the server says the kernel has ended, the
 * page's guard (the lab's template: window.nidavellirGuard) says so in words at the top,
 * in the page's language, waits until the server answers, and reloads itself onto a new
 * kernel, never giving up. This extension tells the guard what only the widget manager
 * knows: the dashboard is there, the answers the page keeps, and the clicks the kernel
 * had not acknowledged when it stopped (they did not count: the page names them).
 *
 * 5. A preheated page is built again in its language only once its widgets are restored.
 * A kernel of the class pool builds the interface in the server's language before any page
 * comes, and again in the page's language once Voila hands it the page's request
 * (widgets/language.py). Built while the page restores its widgets, that second interface
 * raced the restoration: ipywidgets answers the page's request for every widget's state by
 * walking the kernel's widgets while the kernel adds new ones, and on a busy machine some
 * widgets of the new interface reached the page without the widgets they hold ("Click to
 * show javascript error." in their place). The widget manager's restoreWidgets is wrapped:
 * once it has ended, every language page (a model with the class nid-language-page) gets
 * the message {event: "nidavellir:restored"}, and the kernel builds the page's language
 * then, on its main thread, like any click.
 *
 * The file is served as static/remoteEntry.<hash>.js (package.json's "load"); the hash is
 * the first 16 hex digits of its SHA-256, so browsers may cache it for good. After an edit,
 * run `python -m nidavellir.classroom.server.static --rehash` (tests check the hash).
 */
var _JUPYTERLAB;
(function () {
  "use strict";
  var NAME = "@nidavellir/voila-page";
  var VERSION = "0.1.0"; // package.json's version: the ClassOutbox widget's module version
  var shareScope = null;
  var containers = {};

  function pageConfig() {
    var el = document.getElementById("jupyter-config-data");
    try {
      return el ? JSON.parse(el.textContent || "{}") : {};
    } catch (err) {
      return {};
    }
  }

  function deferred() {
    var list = pageConfig().nidavellirDeferredExtensions;
    return Array.isArray(list) ? list : [];
  }

  function extensionUrl(ext) {
    var base = (pageConfig().fullLabextensionsUrl || "").replace(/\/+$/, "");
    return base + "/" + ext.name + "/" + ext.load.replace(/^\.?\/+/, "");
  }

  function loadScript(url) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.async = true;
      script.onload = resolve;
      script.onerror = function () {
        reject(new Error("could not load " + url));
      };
      script.src = url;
      document.head.appendChild(script);
    });
  }

  // The real extension's container, loaded and initialised once (with the page's share
  // scope, as Voila does for the extensions it loads itself).
  function container(ext) {
    if (!containers[ext.name]) {
      containers[ext.name] = loadScript(extensionUrl(ext)).then(function () {
        var found = window._JUPYTERLAB && window._JUPYTERLAB[ext.name];
        if (!found) {
          throw new Error(ext.name + ": its remoteEntry defines no container");
        }
        return Promise.resolve(found.init(shareScope)).then(function () {
          return found;
        });
      });
      containers[ext.name].catch(function () {
        delete containers[ext.name]; // a later output may try again
      });
    }
    return containers[ext.name];
  }

  function loadModule(ext, module) {
    return container(ext).then(function (found) {
      return found.get(module);
    }).then(function (factory) {
      var mod = factory();
      return Object.prototype.hasOwnProperty.call(mod, "__esModule") || "default" in mod
        ? mod.default : mod;
    });
  }

  function versionKey(version) {
    return version.split(/[.+-]/).map(function (part) {
      return /^\d+$/.test(part) ? ("000000" + part).slice(-6) : part;
    }).join(".");
  }

  // A module shared by the page (the one the page already uses, else the highest version).
  function shared(name) {
    var versions = shareScope && shareScope[name];
    if (!versions) {
      return Promise.reject(new Error(name + " is not shared on this page"));
    }
    var best = null;
    Object.keys(versions).forEach(function (version) {
      var entry = versions[version];
      if (!best || (entry.loaded && !best.entry.loaded) ||
          (!!entry.loaded === !!best.entry.loaded &&
           versionKey(version) > versionKey(best.version))) {
        best = { version: version, entry: entry };
      }
    });
    return Promise.resolve(best.entry.get()).then(function (factory) {
      return factory();
    });
  }

  function mimeExtensionModule() {
    var exts = deferred().filter(function (ext) {
      return ext.mimeExtension && (ext.mimeTypes || []).length;
    });
    if (!exts.length) {
      return Promise.resolve([]);
    }
    return shared("@lumino/widgets").then(function (lumino) {
      var factories = {};

      // The real renderer factory of a deferred extension for one mime type.
      function realFactory(ext, mimeType) {
        var key = ext.name + " " + mimeType;
        if (!factories[key]) {
          factories[key] = loadModule(ext, ext.mimeExtension).then(function (mod) {
            var list = Array.isArray(mod) ? mod : [mod];
            for (var i = 0; i < list.length; i++) {
              var rf = list[i] && list[i].rendererFactory;
              if (rf && (rf.mimeTypes || []).indexOf(mimeType) >= 0) {
                return rf;
              }
            }
            throw new Error(ext.name + " renders no " + mimeType);
          });
          factories[key].catch(function () {
            delete factories[key];
          });
        }
        return factories[key];
      }

      // The real plotly renderer (jupyterlab-plotly's RenderedPlotly), made to draw a chart
      // once and again only when its size changed (see 1. above).
      function quietPlotly(real) {
        var Rendered = real && real.constructor;
        if (!Rendered || typeof real.onUpdateRequest !== "function" ||
            typeof real.hasGraphElement !== "function") {
          return; // another renderer than the one this was written against: left as it is
        }
        real.onUpdateRequest = function () {
          var Plotly = Rendered.Plotly;
          if (!Plotly || !this.isVisible || !this.hasGraphElement()) {
            return;
          }
          var width = this.node.offsetWidth, height = this.node.offsetHeight;
          if (width === this.nidavellirWidth && height === this.nidavellirHeight) {
            return;
          }
          this.nidavellirWidth = width;
          this.nidavellirHeight = height;
          Plotly.Plots.resize(this.node);
        };
        if (!Rendered.nidavellirQuiet && Rendered.loadingPlotly) {
          Rendered.nidavellirQuiet = true;
          Promise.resolve(Rendered.loadingPlotly).then(function () {
            var plotly = Rendered.Plotly; // a module namespace: its members cannot be set
            if (plotly && !plotly.nidavellirQuiet) {
              var quiet = {};
              Object.keys(plotly).forEach(function (key) {
                quiet[key] = plotly[key];
              });
              quiet.nidavellirQuiet = true;
              quiet.toImage = function () {
                return new Promise(function () {}); // no picture to keep in a Voila page
              };
              Rendered.Plotly = quiet;
            }
          });
        }
      }

      class LazyRenderer extends lumino.Widget {
        constructor(options, ext) {
          super();
          this.addClass("nid-lazy-output");
          this.layout = new lumino.PanelLayout();
          this._options = options;
          this._ext = ext;
          this._real = null;
        }

        renderModel(model) {
          var self = this;
          return realFactory(self._ext, self._options.mimeType).then(function (factory) {
            if (self.isDisposed) {
              return undefined;
            }
            if (!self._real) {
              self._real = factory.createRenderer(self._options);
              quietPlotly(self._real);
              self.layout.addWidget(self._real);
            }
            return self._real.renderModel(model);
          }, function (err) {
            self.node.textContent = "This output could not be shown: " + err.message;
            throw err;
          });
        }
      }

      return exts.map(function (ext) {
        return {
          id: NAME + ":" + ext.name,
          rendererFactory: {
            safe: ext.safe !== false,
            mimeTypes: ext.mimeTypes,
            createRenderer: function (options) {
              return new LazyRenderer(options, ext);
            },
          },
          rank: typeof ext.rank === "number" ? ext.rank : 0,
          dataType: ext.dataType || "json",
        };
      });
    });
  }

  function sameToken(a, b) {
    return !!a && !!b && (a === b || a.name === b.name);
  }

  // The exports of a deferred widget module: activate the real extension's plugins that
  // register widgets, against a registry that keeps what they register.
  function widgetExports(app, ext, moduleName, registryToken) {
    return loadModule(ext, ext.extension).then(function (mod) {
      var plugins = Array.isArray(mod) ? mod : [mod];
      var registered = [];
      var registry = {
        registerWidget: function (data) {
          registered.push(data);
        },
      };
      var activations = plugins.filter(function (plugin) {
        return plugin && typeof plugin.activate === "function" &&
          (plugin.requires || []).some(function (token) {
            return sameToken(token, registryToken);
          });
      }).map(function (plugin) {
        var required = (plugin.requires || []).map(function (token) {
          return sameToken(token, registryToken) ? registry
            : app.resolveRequiredService(token);
        });
        var optional = (plugin.optional || []).map(function (token) {
          return app.resolveOptionalService(token);
        });
        return Promise.all(required.concat(optional)).then(function (services) {
          return plugin.activate.apply(plugin, [app].concat(services));
        });
      });
      return Promise.all(activations).then(function () {
        for (var i = 0; i < registered.length; i++) {
          if (registered[i].name === moduleName) {
            var exports = registered[i].exports;
            return typeof exports === "function" ? exports() : exports;
          }
        }
        throw new Error(ext.name + " registered no widget module " + moduleName);
      });
    });
  }

  // The prototype of the lab's KernelWidgetManager (or one above it) that defines ``name``.
  function definingPrototype(labManager, name) {
    var proto = labManager && labManager.KernelWidgetManager &&
      labManager.KernelWidgetManager.prototype;
    while (proto && !Object.prototype.hasOwnProperty.call(proto, name)) {
      proto = Object.getPrototypeOf(proto);
    }
    return proto || null;
  }

  // ipywidgets' get_model, looking once more when its wait ends (see 2. above).
  function mendGetModel(labManager) {
    var proto = definingPrototype(labManager, "get_model");
    if (!proto || proto.get_model.nidavellirMended) {
      return;
    }
    var original = proto.get_model;
    var WAIT_MS = 2000;
    var STEP_MS = 100;
    var mended = function (modelId) {
      var manager = this;
      return Promise.resolve().then(function () {
        return original.call(manager, modelId);
      }).catch(function (err) {
        var deadline = Date.now() + WAIT_MS;
        return new Promise(function (resolve, reject) {
          (function look() {
            var model = manager._models && manager._models[modelId];
            if (model !== undefined) {
              resolve(model);
            } else if (Date.now() >= deadline) {
              reject(err);
            } else {
              setTimeout(look, STEP_MS);
            }
          })();
        });
      });
    };
    mended.nidavellirMended = true;
    mended.nidavellirOriginal = original; // for tests/browser/test_dashboard.py
    proto.get_model = mended;
  }

  // 5. The page says when its widgets are restored (see 5. above).
  var RESTORED = "nidavellir:restored";

  function tellLanguagePages(manager) {
    var models = (manager && manager._models) || {};
    Object.keys(models).forEach(function (id) {
      Promise.resolve(models[id]).then(function (model) {
        var classes = model && typeof model.get === "function" && model.get("_dom_classes");
        if (Array.isArray(classes) && classes.indexOf("nid-language-page") >= 0 &&
            model.comm) {
          model.send({ event: RESTORED }, {});
        }
      }).catch(function () {
        return undefined; // a model that failed to load is no language page
      });
    });
  }

  function announceRestored(labManager) {
    var proto = definingPrototype(labManager, "restoreWidgets");
    if (!proto || proto.restoreWidgets.nidavellirAnnounces) {
      return;
    }
    var original = proto.restoreWidgets;
    var announcing = function () {
      var manager = this;
      return Promise.resolve(original.apply(manager, arguments)).then(function (result) {
        tellLanguagePages(manager);
        return result;
      });
    };
    announcing.nidavellirAnnounces = true;
    proto.restoreWidgets = announcing;
  }

  function extensionModule() {
    var mend = shared("@jupyter-widgets/jupyterlab-manager").then(function (labManager) {
      mendGetModel(labManager);
      announceRestored(labManager);
    }, function () {
      return undefined; // no widget manager on this page: nothing to mend
    });
    var exts = deferred().filter(function (ext) {
      return ext.extension && (ext.widgets || []).length;
    });
    return mend.then(function () {
      return shared("@jupyter-widgets/base");
    }).then(function (base) {
      var plugins = classPlugins(base);
      if (!exts.length) {
        return plugins;
      }
      return plugins.concat([{
        id: NAME + ":widgets",
        description: "Registers deferred widget modules; loads each on its first widget.",
        autoStart: true,
        requires: [base.IJupyterWidgetRegistry],
        activate: function (app, widgetRegistry) {
          exts.forEach(function (ext) {
            ext.widgets.forEach(function (widget) {
              var exports = null;
              widgetRegistry.registerWidget({
                name: widget.name,
                version: widget.version,
                exports: function () {
                  if (!exports) {
                    exports = widgetExports(app, ext, widget.name,
                                            base.IJupyterWidgetRegistry);
                    exports.catch(function () {
                      exports = null;
                    });
                  }
                  return exports;
                },
              });
            });
          });
        },
      }]);
    }, function () {
      return []; // no widgets on this page
    });
  }


  // ---------------------------------------------------------------- 3. the class outbox

  var STORE = "nidavellir/class/";
  var memory = {}; // when the browser keeps nothing (storage off or full)
  var outboxes = [];

  function storage() {
    try {
      return window.localStorage || null;
    } catch (err) {
      return null;
    }
  }

  function load(key) {
    var s = storage(), text = null;
    try {
      text = s ? s.getItem(key) : null;
    } catch (err) {
      text = null;
    }
    if (text === null && Object.prototype.hasOwnProperty.call(memory, key)) {
      text = memory[key];
    }
    try {
      return text === null ? null : JSON.parse(text);
    } catch (err) {
      return null;
    }
  }

  function save(key, value) {
    var text = JSON.stringify(value), s = storage();
    try {
      if (!s) {
        throw new Error("no storage");
      }
      s.setItem(key, text);
      delete memory[key];
    } catch (err) {
      memory[key] = text; // kept while the page lives
    }
  }

  function forget(key) {
    delete memory[key];
    var s = storage();
    try {
      if (s) {
        s.removeItem(key);
      }
    } catch (err) {
      // nothing to forget
    }
  }

  function storedKeys(prefix) {
    var found = {}, s = storage(), i;
    try {
      for (i = 0; s && i < s.length; i++) {
        if (s.key(i).indexOf(prefix) === 0) {
          found[s.key(i)] = true;
        }
      }
    } catch (err) {
      // what memory holds is still there
    }
    Object.keys(memory).forEach(function (key) {
      if (key.indexOf(prefix) === 0) {
        found[key] = true;
      }
    });
    return Object.keys(found);
  }

  function newId() {
    var bytes = new Uint8Array(16), out = "", i;
    window.crypto.getRandomValues(bytes); // also on plain http (a classroom server)
    for (i = 0; i < bytes.length; i++) {
      out += ("0" + bytes[i].toString(16)).slice(-2);
    }
    return out;
  }

  function newIds(n) {
    var ids = [];
    while (ids.length < n) {
      ids.push(newId());
    }
    return ids;
  }

  function outboxModel(base) {
    class ClassOutboxModel extends base.WidgetModel {
      defaults() {
        return Object.assign({}, super.defaults(), {
          _model_name: "ClassOutboxModel",
          _model_module: NAME,
          _model_module_version: VERSION,
          class_key: "",
          place: {},
        });
      }

      initialize(attributes, options) {
        super.initialize(attributes, options);
        this.on("msg:custom", this._fromKernel, this);
        this.on("change:place", this._placed, this);
        outboxes.push(this);
        var self = this;
        Promise.resolve(this.state_change).then(function () {
          self._hello();
        });
      }

      _prefix() {
        return STORE + String(this.get("class_key") || "none") + "/";
      }

      student() {
        var key = this._prefix() + "student", id = load(key);
        if (typeof id !== "string" || !/^[0-9a-f]{32}$/.test(id)) {
          id = newId();
          save(key, id);
        }
        return id;
      }

      _entries() {
        var prefix = this._prefix() + "answer/";
        return storedKeys(prefix).map(function (key) {
          return { key: key, entry: load(key) };
        }).filter(function (e) {
          return e.entry && e.entry.item && e.entry.item.answer;
        });
      }

      pending() {
        return this._entries().filter(function (e) {
          return e.entry.state !== "stored";
        }).length;
      }

      _send(content) {
        try {
          this.send(content);
          return true;
        } catch (err) {
          return false; // the kernel is gone: the answers stay here
        }
      }

      _hello() {
        var held = [], known = [];
        this._entries().forEach(function (e) {
          (e.entry.state === "stored" ? known : held).push(e.entry.item);
        });
        this._send({
          kind: "hello", student: this.student(), place: load(this._prefix() + "place") || {},
          ids: newIds(4), held: held, known: known,
        });
        var self = this;
        this._beat = setInterval(function () {
          if (!self._send({ kind: "beat" })) {
            clearInterval(self._beat);
          }
        }, 30000);
      }

      _fromKernel(content) {
        var prefix = this._prefix() + "answer/";
        if (!content || typeof content !== "object") {
          return;
        }
        if (content.kind === "hold" && content.item && content.item.answer) {
          var uid = String(content.item.answer.uid);
          save(prefix + uid, { item: content.item, state: "held", at: Date.now() });
          this._send({ kind: "held", uid: uid, ids: newIds(1) });
        } else if (content.kind === "stored") {
          (content.uids || []).forEach(function (uid) {
            var entry = load(prefix + uid);
            if (entry) {
              entry.state = "stored";
              save(prefix + uid, entry);
            }
          });
          this._prune();
        } else if (content.kind === "dropped") {
          (content.uids || []).forEach(function (uid) {
            forget(prefix + uid);
          });
        }
        guard.update();
      }

      // The confirmed answers kept: each question's latest (a reload shows it).
      _prune() {
        var latest = {};
        this._entries().forEach(function (e) {
          var a = e.entry.item.answer;
          if (e.entry.state !== "stored") {
            return;
          }
          var q = String(a.question);
          if (!latest[q] || latest[q].at < a.at) {
            if (latest[q]) {
              forget(latest[q].key);
            }
            latest[q] = { key: e.key, at: a.at };
          } else {
            forget(e.key);
          }
        });
      }

      _placed() {
        var place = this.get("place");
        if (place && typeof place === "object" && Object.keys(place).length) {
          save(this._prefix() + "place", place);
        }
      }
    }
    return ClassOutboxModel;
  }

  // ---------------------------------------------------------------- 4. a dead kernel

  // The page's guard lives in the page itself (the lab's template, index.html.j2:
  // window.nidavellirGuard), from before Voila's scripts: it says in the page's language
  // what happened and brings the page back. This extension tells it what only the
  // widget manager knows: the dashboard is there, the kernel stopped, the answers the
  // page keeps, and the clicks the kernel had not acknowledged when it stopped.
  function pageGuard() {
    return window.nidavellirGuard || null;
  }

  var guard = {
    // Answers kept on the page, not confirmed by the class's database (null: no class).
    kept: function () {
      return outboxes.length ? outboxes.reduce(function (n, outbox) {
        return n + outbox.pending();
      }, 0) : null;
    },
    update: function () {
      var g = pageGuard();
      if (g && g.isLost()) {
        return; // said when it was lost: the count then is what the reload sends
      }
    },
  };

  // Clicks sent to the kernel and not yet acknowledged (the kernel said "idle" after
  // handling them): a click in the instant the kernel dies did not count, and the page
  // says so by name rather than keeping quiet.
  var clicks = {};

  function unansweredClicks() {
    return Object.keys(clicks).map(function (id) {
      return clicks[id].label;
    });
  }

  function trackClicks(manager, kernel) {
    if (!kernel.anyMessage) {
      return;
    }
    kernel.anyMessage.connect(function (_k, args) {
      var msg = args && args.msg, content = msg && msg.content;
      if (!msg || !msg.header) {
        return;
      }
      if (args.direction === "send" && msg.header.msg_type === "comm_msg" &&
          content && content.data && content.data.method === "custom" &&
          content.data.content && content.data.content.event === "click") {
        var entry = clicks[msg.header.msg_id] = {label: "", at: Date.now()};
        var g = pageGuard();
        entry.label = g ? g.say("a_control") : "";
        Promise.resolve(manager.get_model(content.comm_id)).then(function (model) {
          var label = model && (model.get("description") || model.get("tooltip"));
          if (label) {
            entry.label = String(label);
          }
        }, function () {
          return undefined; // no such model: "a control"
        });
      } else if (args.direction === "recv" && msg.header.msg_type === "status" &&
                 content && content.execution_state === "idle" && msg.parent_header) {
        delete clicks[msg.parent_header.msg_id];
      }
    });
  }

  // What the guard saw, for whoever looks (the tests, the benchmarks): the page's guard
  // made it; a page without it (another template) gets it here.
  var seen = window.nidavellirPage = window.nidavellirPage ||
    { watching: null, lost: null, why: "", back: null, ready: null };

  function lost(why) {
    var g = pageGuard();
    if (g) {
      g.lost(why, unansweredClicks());
    } else if (!seen.lost) {
      seen.lost = Date.now();
      seen.why = why;
      window.location.reload();
    }
  }

  function watch(kernel, manager) {
    if (!kernel || watch.seen) {
      return;
    }
    watch.seen = true;
    seen.watching = Date.now();
    var g = pageGuard();
    if (g) {
      g.keeps(guard.kept);
      g.unanswered = unansweredClicks;
    }
    var id = kernel.id, checking = null, down = false;
    trackClicks(manager, kernel);
    function ready() {
      var pg = pageGuard();
      if (pg && kernel.connectionStatus === "connected") {
        pg.ready();
      }
    }
    ready();
    kernel.statusChanged.connect(function (_k, status) {
      if (status === "dead" || status === "autorestarting" || status === "restarting") {
        lost("its kernel stopped");
      } else {
        ready();
      }
    });
    // A connection that drops: the kernel may still be there (a network blip, the
    // websocket reconnects by itself) or not (the server ended it, or restarted): the
    // page's heartbeat asks the server, now and every half second until it is connected
    // again (a refused connection costs a stopped server nothing).
    // One question at a time: the next is asked half a second after the answer (a server
    // that accepts connections but answers slowly is not asked again meanwhile).
    function check() {
      checking = null;
      var pg = pageGuard();
      var asked = pg && pg.beat ? pg.beat() :
        fetch(baseUrl() + "nidavellir/api/page/" + id,
              { cache: "no-store", credentials: "same-origin", redirect: "manual" })
          .then(function (r) {
            if (r.status === 404) {
              lost("its kernel has ended");
            }
          }, function () {
            // the server does not answer yet: the next check will tell
          });
      Promise.resolve(asked).then(function () {
        var gone = pg && pg.isLost && pg.isLost();
        if (down && !gone && checking === null) {
          checking = setTimeout(check, 500);
        }
      });
    }
    kernel.connectionStatusChanged.connect(function (_k, status) {
      if (status === "connected") {
        down = false;
        clearTimeout(checking);
        checking = null;
        // Connected again: the server and the kernel are there (a warning that it did
        // not answer goes, and a later loss is not dated from this one).
        var pg = pageGuard();
        if (pg && pg.alive) {
          pg.alive();
        }
        ready();
      } else if (!down) {
        down = true;
        check();
      }
    });
  }

  function baseUrl() {
    return pageConfig().baseUrl || "/";
  }

  function classPlugins(base) {
    var ClassOutboxModel = outboxModel(base);
    return [{
      id: NAME + ":class",
      description: "The class outbox (answers kept in the page) and the dead-kernel guard.",
      autoStart: true,
      requires: [base.IJupyterWidgetRegistry],
      activate: function (app, widgetRegistry) {
        widgetRegistry.registerWidget({
          name: NAME, version: VERSION, exports: { ClassOutboxModel: ClassOutboxModel },
        });
        var promise = app && app.widgetManagerPromise && app.widgetManagerPromise.promise;
        if (promise) {
          promise.then(function (manager) {
            watch(manager && manager.kernel, manager);
          });
        }
      },
    }];
  }

  var modules = {
    "./mimeExtension": mimeExtensionModule,
    "./extension": extensionModule,
  };

  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB[NAME] = {
    init: function (scope) {
      shareScope = scope;
    },
    get: function (module) {
      var make = modules[module];
      if (!make) {
        return Promise.reject(new Error('Module "' + module + '" does not exist in container.'));
      }
      return make().then(function (exported) {
        return function () {
          return { __esModule: true, default: exported };
        };
      });
    },
  };
})();
