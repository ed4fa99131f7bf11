/* @nidavellir/voila-page: the lab's additions to Voila's page (docs/serving.md).
 *
 * A federated extension container written by hand (no build step): Voila loads it like any
 * prebuilt extension (window._JUPYTERLAB[name] with init(shareScope) and get(module)).
 *
 * 1. Heavy extensions load only when a page needs them. The server
 * (nidavellir/integrations/voila_app.py) takes the extensions it defers out of the page's
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
 *
 * 2. A widget found late is found. The page's first widget view may ask the manager
 * (get_model) for its model while the widget state is still on its way; the manager the
 * lab installs (jupyterlab_widgets 3.0.13, the one built against Voila's JupyterLab) then
 * gives up at once, and later releases after a 2 s wait without looking once more. The
 * view shows "Error displaying widget: model not found" for good (the manager counts as
 * restored by then). Seen on 6x throttled pages, as a slow laptop gets them. get_model
 * keeps looking for 2 s, every 100 ms, and once more at the end.
 *
 * The file is served as static/remoteEntry.<hash>.js (package.json's "load"); the hash is
 * the first 16 hex digits of its SHA-256, so browsers may cache it for good. After an edit,
 * run `python -m nidavellir.integrations.voila_static --rehash` (tests check the hash).
 */
var _JUPYTERLAB;
(function () {
  "use strict";
  var NAME = "@nidavellir/voila-page";
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

  // ipywidgets' get_model, looking once more when its wait ends (see 2. above).
  function mendGetModel(labManager) {
    var proto = labManager && labManager.KernelWidgetManager &&
      labManager.KernelWidgetManager.prototype;
    while (proto && !Object.prototype.hasOwnProperty.call(proto, "get_model")) {
      proto = Object.getPrototypeOf(proto);
    }
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

  function extensionModule() {
    var mend = shared("@jupyter-widgets/jupyterlab-manager").then(mendGetModel, function () {
      return undefined; // no widget manager on this page: nothing to mend
    });
    var exts = deferred().filter(function (ext) {
      return ext.extension && (ext.widgets || []).length;
    });
    if (!exts.length) {
      return mend.then(function () {
        return [];
      });
    }
    return mend.then(function () {
      return shared("@jupyter-widgets/base");
    }).then(function (base) {
      return [{
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
      }];
    });
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
