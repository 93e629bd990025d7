// Loaded after require.js and before the ipywidgets HTML manager (embed-amd.js), on the
// pages that hold widget state. Two adjustments so that the widgets render fully offline:
(function () {
    // 1. Where the manager's icon fonts are. Its bundles find them beside their own AMD
    //    module's address, which require.js makes relative to the page; map the module
    //    names to the folder they were copied to, _static/html-manager/dist/ (found from
    //    this script's own address, so right for a page at any depth, file:// or http).
    const dist = new URL("html-manager/dist/", document.currentScript.src).href;
    window.__jupyter_widgets_assets_path__ = dist;
    window.requirejs.config({
        paths: {
            "@jupyter-widgets/html-manager/dist": dist.slice(0, -1),
            "@jupyter-widgets": dist.slice(0, -1),
            // The drawings are anywidget widgets: their front-end module, served from
            // _static (scripts/fetch_widget_js.sh copies it there), not from a CDN.
            anywidget: new URL("anywidget", document.currentScript.src).href,
        },
    });

    // 2. ipywidgets typesets the math in widget labels with MathJax 2's API,
    //    MathJax.Hub.Queue(["Typeset", MathJax.Hub, element]); the site loads MathJax 3,
    //    which has no Hub, so each label would throw. Give whatever window.MathJax
    //    becomes (MathJax 3 replaces its configuration object when it starts) that one
    //    call, done the MathJax 3 way once MathJax is ready.
    function addHub(mathjax) {
        if (mathjax && typeof mathjax === "object" && !("Hub" in mathjax)) {
            Object.defineProperty(mathjax, "Hub", {
                enumerable: false, // not a configuration option for MathJax to check
                value: {
                    Queue(command) {
                        const element = command[2];
                        const ready = mathjax.startup && mathjax.startup.promise;
                        if (ready && mathjax.typesetPromise) {
                            ready.then(() => mathjax.typesetPromise([element]));
                        }
                    },
                },
            });
        }
        return mathjax;
    }
    let current = addHub(window.MathJax);
    Object.defineProperty(window, "MathJax", {
        configurable: true,
        get: () => current,
        set: (value) => {
            current = addHub(value);
        },
    });
})();
