// The report's interactive charts (bundled by scripts/buildViewer.mjs into dist/vendor/vega-viewer.js and
// inlined into the page by renderTearsheet({ interactive: true })): each <figure data-spec="k"> gets its
// vega-lite spec under key k (section.chart) from <script type="application/json" id="milab-specs"> drawn live (hover tooltips,
// drag to pan, wheel to zoom, double-click to reset) above its static SVG, which stays for print and
// for a browser without script. Nothing is fetched: vega, vega-lite and vega-embed are in this file.
import embed from "vega-embed";

const data = document.getElementById("milab-specs");
const specs = data === null ? {} : JSON.parse(data.textContent ?? "{}");
for (const figure of document.querySelectorAll("figure[data-spec]")) {
  const spec = specs[figure.getAttribute("data-spec") ?? ""];
  if (spec === undefined) continue;
  const host = document.createElement("div");
  host.className = "live-chart";
  figure.appendChild(host);
  embed(host, spec, { actions: false, renderer: "svg", tooltip: { theme: "light" } })
    .then(() => figure.classList.add("live"))
    .catch((err) => {
      host.remove();
      console.warn("market-intel-lab: interactive chart not drawn, the static one stays:", err);
    });
}
