// Loaded by an exported page (scripts/export_page.py) as its "MathJax URL": sets MathJax 3
// up the way nbconvert's page template expects MathJax 2 to be set up, then loads MathJax 3
// from the folder beside this file (mathjax/, the copy scripts/fetch_mathjax.sh keeps), so
// the page's formulas typeset with no network.
(function () {
    const here = document.currentScript.src;
    window.MathJax = {
        // The template's delimiters: $...$ and \(...\) inline, $$...$$ and \[...\] displayed.
        tex: {
            inlineMath: [["$", "$"], ["\\(", "\\)"]],
            displayMath: [["$$", "$$"], ["\\[", "\\]"]],
            processEscapes: true,
            processEnvironments: true,
            tags: "ams",
        },
        // The "Safe" of the template's MathJax 2 URL: no javascript: links or styles from TeX.
        loader: { load: ["ui/safe"] },
        startup: {
            ready() {
                MathJax.startup.defaultReady();
                // ipywidgets typesets the math of widget labels with MathJax 2's call,
                // MathJax.Hub.Queue(["Typeset", MathJax.Hub, element]): answer it the MathJax 3 way.
                MathJax.Hub = {
                    Queue(command) {
                        const element = command[2];
                        if (element) {
                            MathJax.startup.promise.then(() => MathJax.typesetPromise([element]));
                        }
                    },
                };
            },
        },
    };
    const script = document.createElement("script");
    script.src = new URL("mathjax/tex-mml-chtml.js", here).href;
    script.async = true;
    document.head.appendChild(script);
})();
