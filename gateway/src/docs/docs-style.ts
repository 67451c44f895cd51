/** The reference page's only stylesheet, inlined (and allowed by its hash in the page's CSP). */
export const DOCS_CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2330;background:#fff}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;background:#f2f4f7;padding:0 .25em;border-radius:3px}
a{color:#1d4ed8;text-decoration:none}a:hover{text-decoration:underline}
nav{position:fixed;top:0;left:0;bottom:0;width:280px;overflow:auto;padding:1rem;border-right:1px solid #e3e7ee;background:#fafbfc;font-size:13px}
nav ul{list-style:none;padding-left:.5rem;margin:.25rem 0 .75rem}nav li{margin:.1rem 0}
nav .group{font-weight:600;margin-top:.5rem}
main{margin-left:280px;padding:1.5rem 2.5rem;max-width:1100px}
h1{margin-top:0}h2{border-bottom:2px solid #e3e7ee;padding-bottom:.3rem;margin-top:2.5rem}
.op{border:1px solid #e3e7ee;border-radius:6px;padding:.5rem 1rem 1rem;margin:1.25rem 0}
.op h3{margin:.5rem 0;font-size:1.05rem}.path{background:none;font-size:1rem}
.method{display:inline-block;min-width:4.2em;text-align:center;border-radius:4px;padding:.05rem .4rem;color:#fff;font-size:.8rem;font-weight:700;background:#64748b}
.method.get{background:#2563eb}.method.post{background:#059669}.method.put{background:#b45309}.method.patch{background:#7c3aed}.method.delete{background:#dc2626}
.meta{margin:.2rem 0;color:#556}.summary{font-weight:600;margin:.3rem 0}
.scope,.deprecated{display:inline-block;margin-left:.5rem;padding:0 .4rem;border-radius:10px;background:#eef2ff;font-size:.8rem}
.deprecated{background:#fee2e2;color:#991b1b}
table{border-collapse:collapse;width:100%;margin:.4rem 0;font-size:.9rem}
td,th{border:1px solid #e3e7ee;padding:.3rem .5rem;vertical-align:top;text-align:left}th{background:#f6f8fa}
td p{margin:.15rem 0}
table.props table.props{margin:.3rem 0 0;font-size:.85rem}
.req{color:#b91c1c;font-size:.75rem}.note{color:#667;font-size:.8rem}
.type{font-size:.9rem}.media{margin:.3rem 0 .6rem}
.response{border-top:1px solid #eef0f3;padding:.4rem 0}
.status{display:inline-block;font-weight:700;min-width:3em}.status.ok{color:#047857}.status.err{color:#b91c1c}
.headers ul{display:inline;padding:0;margin:0}.headers li{display:inline;margin-right:.6rem}
.response p{display:inline}.response ul{margin:.2rem 0 .2rem 1rem;padding-left:1rem}
`;
