/**
 * What a reader of a report would see wrong in its charts, read in Chromium: a chart with no
 * visible marks, a mark hidden (clipped away or covered by something that is not the chart's
 * own), a value or axis label cut by a clip or covered, and two labels on top of each other.
 * Visibility is read by hit-testing (document.elementFromPoint): a clipped-away region is not
 * hit (CSS Masking), so a bar clipped to nothing and "11.42" cut to "1" both show. The code
 * runs in the page as text (no bundler helpers needed there).
 */
import type { Page } from "playwright-core";

/** One defect: the chart (its title), the view ("live" or "static") and what is wrong. */
export interface ChartDefect {
  /** Index of the figure among the page's figures with an SVG. */
  readonly figure: number;
  readonly chart: string;
  readonly view: string;
  readonly defect: string;
}

/** Which SVG of each figure to check: the live (interactive) chart, or the static one. */
export type ChartView = "live" | "static";

const IN_PAGE = String.raw`(async function (view) {
  var style = document.createElement("style");
  style.textContent = "figure svg, figure svg * { pointer-events: visiblePainted !important; }";
  document.head.appendChild(style);
  // what is not painted (vega hides overlapping axis labels with opacity 0) takes no part in the hit tests
  var unpainted = [...document.querySelectorAll("figure svg *")].filter(function (el) { return Number(getComputedStyle(el).opacity) === 0; });
  unpainted.forEach(function (el) { el.style.setProperty("pointer-events", "none", "important"); });
  var defects = [];
  var figures = [...document.querySelectorAll("figure")].filter(function (f) { return f.querySelector("svg") !== null; });
  for (var fi = 0; fi < figures.length; fi++) {
    var figure = figures[fi];
    var svg = view === "live" ? figure.querySelector(".live-chart svg") : figure.querySelector(":scope > svg, :scope > div:not(.live-chart) svg");
    if (view === "static" && svg === null) svg = [...figure.querySelectorAll("svg")].find(function (s) { return s.closest(".live-chart") === null; }) || null;
    var titleNode = (svg || figure).querySelector(".role-title-text");
    var chart = (titleNode && titleNode.textContent) || (figure.querySelector("figcaption") || {}).textContent || "figure " + fi;
    if (svg === null) { if (view === "live" && figure.hasAttribute("data-spec")) defects.push({ figure: fi, chart: chart, view: view, defect: "no live chart" }); continue; }
    svg.scrollIntoView({ block: "start" });
    await new Promise(function (r) { requestAnimationFrame(function () { r(null); }); });
    var box = svg.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) { defects.push({ figure: fi, chart: chart, view: view, defect: "not shown" }); continue; }
    var owned = function (el) { return el !== null && svg.contains(el) && el.closest("g.role-mark") !== null; };
    var marks = [...svg.querySelectorAll("g.role-mark > path, g.role-mark > rect, g.role-mark > line, g.role-mark > g > path, g.role-mark > g > rect")];
    // at most 40 marks a chart, evenly spread (a trade chart has hundreds of markers; one hidden bar is enough to see)
    if (marks.length > 40) { var every = marks.length / 40; marks = Array.from({ length: 40 }, function (_, k) { return marks[Math.floor(k * every)]; }); }
    var visible = 0;
    for (var m = 0; m < marks.length; m++) {
      var el = marks[m];
      var r = el.getBoundingClientRect();
      if (r.width * r.height < 1 && Math.max(r.width, r.height) < 2) continue; // a zero-size mark (a bar of value 0) draws nothing by design
      var cs = getComputedStyle(el);
      if (cs.visibility === "hidden" || cs.display === "none" || Number(cs.opacity) === 0) continue;
      var points = [];
      var filled = el.tagName !== "line" && cs.fill !== "none" && !/rgba\(.*, 0\)$/.test(cs.fill) && cs.fillOpacity !== "0";
      if (filled) {
        // a point inside the shape (an area's box centre can lie outside it): a 9 x 9 grid of its box, in its own coordinates
        var bb = el.getBBox();
        var m2 = el.getScreenCTM();
        for (var gy = 1; gy < 10 && points.length === 0; gy++) for (var gx = 1; gx < 10 && points.length === 0; gx++) {
          var lx = bb.x + (bb.width * gx) / 10, ly = bb.y + (bb.height * gy) / 10;
          if (typeof el.isPointInFill !== "function" || el.isPointInFill(new DOMPoint(lx, ly))) points.push([m2.a * lx + m2.c * ly + m2.e, m2.b * lx + m2.d * ly + m2.f]);
        }
        if (points.length === 0) points.push([r.left + r.width / 2, r.top + r.height / 2]);
      }
      else if (typeof el.getTotalLength === "function" && el.getTotalLength() > 0) {
        // a stroke: five points along it (a line may pass under a label or leave the view at one of them)
        var ctm = el.getScreenCTM();
        for (var q = 1; q <= 9; q += 2) {
          var p = el.getPointAtLength((el.getTotalLength() * q) / 10);
          points.push([ctm.a * p.x + ctm.c * p.y + ctm.e, ctm.b * p.x + ctm.d * p.y + ctm.f]);
        }
      } else continue;
      points = points.filter(function (pt) { return pt[0] >= 0 && pt[1] >= 0 && pt[0] < innerWidth && pt[1] < innerHeight; });
      if (points.length === 0) continue;
      // a stroke 1-2 px wide: look within 3 px of each point (a point of the path rounds to a pixel beside it)
      var hit = null;
      var seen = false;
      var x = points[0][0], y = points[0][1];
      for (var pi = 0; pi < points.length && !seen; pi++) {
        for (var dy = -3; dy <= 3 && !seen; dy++) for (var dx = -3; dx <= 3 && !seen; dx++) {
          var here = document.elementFromPoint(points[pi][0] + dx, points[pi][1] + dy);
          if (here === el || owned(here)) seen = true;
          else if (pi === 0 && dx === 0 && dy === 0) hit = here;
        }
      }
      if (seen) visible++;
      else defects.push({ figure: fi, chart: chart, view: view, defect: "hidden mark " + el.tagName + " at " + Math.round(x - box.left) + "," + Math.round(y - box.top) + " (hit " + (hit ? hit.tagName + "." + (hit.parentElement ? hit.parentElement.getAttribute("class") : "") : "nothing") + ")" });
    }
    if (visible === 0) defects.push({ figure: fi, chart: chart, view: view, defect: "no marks drawn (" + marks.length + " mark elements, none visible)" });
    var texts = [...svg.querySelectorAll("text")].filter(function (t) { var r = t.getBoundingClientRect(); var cs = getComputedStyle(t); return (t.textContent || "").trim() !== "" && r.width > 0 && r.height > 0 && Number(cs.opacity) > 0 && cs.visibility !== "hidden"; }); // vega hides overlapping axis labels with opacity 0
    for (var ti = 0; ti < texts.length; ti++) {
      var t = texts[ti];
      var tr = t.getBoundingClientRect();
      var ys = tr.top + tr.height / 2;
      var ends = [tr.left + Math.min(2, tr.width / 4), tr.right - Math.min(2, tr.width / 4)];
      for (var e = 0; e < 2; e++) {
        var h = document.elementFromPoint(ends[e], ys);
        if (h !== t && !(h !== null && t.contains(h))) {
          defects.push({ figure: fi, chart: chart, view: view, defect: "label " + JSON.stringify(t.textContent) + " cut or covered at its " + (e === 0 ? "start" : "end") + " (hit " + (h ? h.tagName + (h.textContent && h.tagName === "text" ? " " + JSON.stringify(h.textContent) : "") : "nothing") + ")" });
          break;
        }
      }
      for (var tj = ti + 1; tj < texts.length; tj++) {
        var u = texts[tj].getBoundingClientRect();
        var w = Math.min(tr.right, u.right) - Math.max(tr.left, u.left);
        var hh = Math.min(tr.bottom, u.bottom) - Math.max(tr.top, u.top);
        if (w > 1 && hh > 1) defects.push({ figure: fi, chart: chart, view: view, defect: "labels " + JSON.stringify(t.textContent) + " and " + JSON.stringify(texts[tj].textContent) + " overlap" });
      }
    }
  }
  style.remove();
  unpainted.forEach(function (el) { el.style.removeProperty("pointer-events"); });
  window.scrollTo(0, 0);
  return defects;
})`;

/**
 * Every chart defect of the page in `view`: for "static" the page is shown as printed (the
 * static SVGs; an interactive report hides them on screen).
 */
export async function chartDefects(page: Page, view: ChartView): Promise<ChartDefect[]> {
  if (view === "static") await page.emulateMedia({ media: "print" });
  try {
    return (await page.evaluate(`${IN_PAGE}(${JSON.stringify(view)})`)) as ChartDefect[];
  } finally {
    if (view === "static") await page.emulateMedia({ media: "screen" });
  }
}
