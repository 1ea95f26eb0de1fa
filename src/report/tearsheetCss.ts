/** The tearsheet's stylesheet, inlined in the page (no external resource). @internal */
export const TEARSHEET_CSS = `
:root { --ink:#212529; --muted:#6c757d; --line:#dee2e6; --bg:#f6f7f9; --card:#fff; --up:#2f9e44; --down:#d9480f; --accent:#4c78a8; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink); font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif; }
main { max-width:1080px; margin:0 auto; padding:28px 24px 48px; }
header.page h1 { margin:0 0 4px; font-size:24px; letter-spacing:-0.01em; }
header.page .subtitle { color:var(--muted); margin:0 0 10px; font-size:15px; }
ul.notes { margin:8px 0 0; padding:0; list-style:none; color:var(--muted); font-size:12.5px; }
ul.notes li { display:inline-block; margin:0 14px 4px 0; }
nav.toc { margin:18px 0 8px; display:flex; flex-wrap:wrap; gap:6px; }
nav.toc a { font-size:12.5px; color:var(--accent); text-decoration:none; border:1px solid var(--line); background:var(--card); border-radius:999px; padding:3px 10px; }
section.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:18px 20px 20px; margin:18px 0; }
section.card > h2 { margin:0 0 4px; font-size:18px; }
section.card > p.intro { margin:0 0 12px; color:var(--muted); }
p.note { margin:2px 0 8px; font-size:13px; border-left:3px solid var(--line); padding-left:8px; }
section.highlights ul { margin:6px 0 0; padding-left:20px; } section.highlights li { margin:3px 0; }
h3 { font-size:13px; text-transform:uppercase; letter-spacing:.05em; color:var(--muted); margin:18px 0 6px; font-weight:600; }
.tiles { display:grid; grid-template-columns:repeat(auto-fill,minmax(120px,1fr)); gap:8px; margin:10px 0 6px; }
.tile { border:1px solid var(--line); border-radius:8px; padding:8px 10px; }
.tile .label { font-size:11px; color:var(--muted); text-transform:uppercase; letter-spacing:.04em; }
.tile .value { font-size:18px; font-weight:600; font-variant-numeric:tabular-nums; }
.tile .value.pos { color:var(--up); } .tile .value.neg { color:var(--down); }
figure.chart { margin:8px 0 0; }
figure.chart svg { max-width:100%; height:auto; display:block; }
figure.chart.live > svg { display:none; } .live-chart { max-width:100%; overflow-x:auto; }
@media print { figure.chart.live > svg { display:block; } figure.chart .live-chart { display:none !important; } }
.grid2 { display:grid; grid-template-columns:repeat(auto-fit,minmax(380px,1fr)); gap:8px 20px; align-items:start; }
.table-wrap { overflow-x:auto; }
table.milab-table { border-collapse:collapse; font-size:12.5px; margin:6px 0; min-width:50%; }
table.milab-table caption { text-align:left; color:var(--muted); font-size:12px; padding-bottom:4px; }
table.milab-table th, table.milab-table td { padding:4px 8px; border-bottom:1px solid #edf0f2; text-align:left; white-space:nowrap; }
table.milab-table th { font-weight:600; border-bottom:1px solid var(--line); background:#fafbfc; white-space:normal; vertical-align:bottom; }
table.milab-table .num { text-align:right; font-variant-numeric:tabular-nums; }
table.milab-table .pos { color:var(--up); } table.milab-table .neg { color:var(--down); }
table.milab-table tbody tr:nth-child(even) { background:#fbfcfd; }
table.milab-table tr.more td { text-align:center; color:var(--muted); font-style:italic; }
footer.page { color:var(--muted); font-size:12px; margin-top:24px; }
@media print { body { background:#fff; } section.card { break-inside:avoid; border-color:#ccc; } nav.toc { display:none; } }
`;
