// The report's CSS and JS, written by hand and kept small: no library, no
// font, nothing fetched. The timeline and the occupancy share one time
// window; the wheel zooms around the pointer, a drag pans, the buttons zoom
// in, out and back to the whole run.

#include "cli/report_assets.h"

namespace stagecraft::cli {

std::string_view reportStyle() {
    return R"CSS(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#222;background:#f4f5f7}
header{background:#1f2d3d;color:#fff;padding:14px 28px}
header h1{margin:0;font-size:22px}header p{margin:4px 0 0;color:#c8d3e0}
nav a{color:#9fd0ff;margin-right:16px;text-decoration:none}
section{background:#fff;margin:16px 28px;padding:12px 20px 18px;border-radius:6px;box-shadow:0 1px 3px #0002;overflow-x:auto}
h2{font-size:18px;margin:6px 0 10px}
table{border-collapse:collapse;margin:8px 0}
table.kv th{text-align:left;padding:2px 18px 2px 0;color:#555;font-weight:600}
table.grid th,table.grid td{border:1px solid #dde;padding:3px 8px;white-space:nowrap}
table.grid th{background:#eef1f5;font-weight:600}
td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.chosen td{background:#fff7d6;font-weight:600}
.bar{fill:#7a9cc6}.bar.chosen{fill:#e0a030}
.note{color:#8a5a00}
.controls button{font:inherit;margin-right:6px;padding:2px 10px}
#timeline,#occupancy{display:block;box-sizing:border-box;width:100%;cursor:grab;border:1px solid #dde;margin-top:6px}
#timeline-status{color:#444;font-variant-numeric:tabular-nums;min-height:1.4em}
.legend span{display:inline-block;margin-right:14px}.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px}
.graph-box{max-height:720px;overflow:auto;border:1px solid #dde;background:#fff}
)CSS";
}

std::string_view reportScript() {
    return R"JS(
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('timeline-data').textContent);
  var tl = document.getElementById('timeline'), oc = document.getElementById('occupancy');
  var status = document.getElementById('timeline-status');
  var colours = ['#6c757d', '#343a40', '#d9534f', '#e67e22', '#5bc0de', '#2e86c1', '#9b59b6', '#27ae60'];
  var left = 170, right = 12, laneH = 13;
  var span = data.makespan > 0 ? data.makespan : 1;
  var view = {t0: 0, t1: span};
  var drag = null;
  var legend = document.getElementById('timeline-legend');
  data.kinds.forEach(function (k, i) {
    var s = document.createElement('span'), b = document.createElement('i');
    b.style.background = colours[i % colours.length];
    s.appendChild(b); s.appendChild(document.createTextNode(k)); legend.appendChild(s);
  });
  function unit(range) {
    return range >= 2e6 ? [1e6, 'ms'] : range >= 2e3 ? [1e3, '\u00b5s'] : [1, 'ns'];
  }
  function setup(c, h) {
    var w = c.parentElement.clientWidth - 2, r = window.devicePixelRatio || 1;
    c.width = Math.round(w * r); c.height = Math.round(h * r);
    c.style.height = h + 'px';
    var g = c.getContext('2d'); g.setTransform(r, 0, 0, r, 0, 0);
    g.clearRect(0, 0, w, h); g.font = '11px sans-serif';
    return {g: g, w: w};
  }
  function px(t, w) { return left + (t - view.t0) / (view.t1 - view.t0) * (w - left - right); }
  function axis(g, w, y) {
    var range = view.t1 - view.t0, u = unit(range);
    var step = Math.pow(10, Math.floor(Math.log10(range / 8)));
    if (range / step > 16) step *= 5; else if (range / step > 8) step *= 2;
    g.fillStyle = '#444'; g.strokeStyle = '#ccc'; g.textAlign = 'center';
    for (var t = Math.ceil(view.t0 / step) * step; t <= view.t1; t += step) {
      var x = px(t, w);
      g.beginPath(); g.moveTo(x, 0); g.lineTo(x, y); g.stroke();
      g.fillText(+(t / u[0]).toPrecision(6) + ' ' + u[1], x, y + 12);
    }
    g.textAlign = 'left';
  }
  function drawTimeline() {
    var h = data.lanes.length * laneH + 22, s = setup(tl, h), g = s.g, w = s.w, n = 0;
    axis(g, w, h - 18);
    g.fillStyle = '#222';
    data.lanes.forEach(function (lane, i) { g.fillText(lane[0], 4, i * laneH + 10); });
    var sp = data.spans;
    for (var i = 0; i < sp.length; i += 5) {
      if (sp[i + 2] < view.t0 || sp[i + 1] > view.t1) continue;
      var x0 = Math.max(left, px(sp[i + 1], w)), x1 = Math.min(w - right, px(sp[i + 2], w));
      g.fillStyle = colours[sp[i + 3] % colours.length];
      g.fillRect(x0, sp[i] * laneH + 2, Math.max(1, x1 - x0), laneH - 3);
      n++;
    }
    tl.setAttribute('data-drawn', String(n));
    return n;
  }
  function drawOccupancy() {
    var groups = {}, names = [];
    data.occupancy.forEach(function (o) {
      if (!groups[o.memory]) { groups[o.memory] = []; names.push(o.memory); }
      groups[o.memory].push(o);
    });
    var panel = 90, h = names.length * (panel + 16) + 22, s = setup(oc, h), g = s.g, w = s.w;
    axis(g, w, h - 18);
    names.forEach(function (name, p) {
      var top = p * (panel + 16) + 14, cap = 1;
      groups[name].forEach(function (o) { cap = Math.max(cap, o.capacity); });
      g.fillStyle = '#222';
      g.fillText(name + ' (' + (cap / 1048576).toFixed(1) + ' MiB)', 4, top);
      g.strokeStyle = '#c0392b'; g.setLineDash([5, 3]);
      g.beginPath(); g.moveTo(left, top + 2); g.lineTo(w - right, top + 2); g.stroke();
      g.setLineDash([]);
      groups[name].forEach(function (o, k) {
        g.strokeStyle = k === 0 ? '#2e86c1' : 'rgba(46,134,193,0.35)';
        g.beginPath();
        var pts = o.points, last = top + panel;
        g.moveTo(left, last);
        for (var i = 0; i < pts.length; i += 2) {
          var x = Math.min(w - right, Math.max(left, px(pts[i], w)));
          var y = top + panel - pts[i + 1] / cap * (panel - 2);
          g.lineTo(x, last); g.lineTo(x, y); last = y;
        }
        g.lineTo(w - right, last); g.stroke();
      });
    });
  }
  function draw() {
    var n = drawTimeline(); drawOccupancy();
    var u = unit(view.t1 - view.t0);
    status.textContent = 'Drawn ' + n + ' of ' + data.shown + ' tasks shown; window ' +
      +(view.t0 / u[0]).toPrecision(6) + '\u2013' + +(view.t1 / u[0]).toPrecision(6) + ' ' + u[1] + '.';
  }
  function zoom(f, at) {
    var t = at === undefined ? (view.t0 + view.t1) / 2 : at;
    var a = t - (t - view.t0) * f, b = t + (view.t1 - t) * f;
    if (b - a < 1) return;
    view.t0 = Math.max(0, a); view.t1 = Math.min(span, b); draw();
  }
  function timeAt(c, e) {
    var r = c.getBoundingClientRect();
    return view.t0 + (e.clientX - r.left - left) / (r.width - left - right) * (view.t1 - view.t0);
  }
  [tl, oc].forEach(function (c) {
    c.addEventListener('wheel', function (e) { e.preventDefault(); zoom(e.deltaY > 0 ? 1.25 : 0.8, timeAt(c, e)); }, {passive: false});
    c.addEventListener('mousedown', function (e) { drag = {x: e.clientX, t0: view.t0, t1: view.t1, w: c.getBoundingClientRect().width}; });
  });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    var dt = (drag.x - e.clientX) / (drag.w - left - right) * (drag.t1 - drag.t0);
    dt = Math.max(-drag.t0, Math.min(span - drag.t1, dt));
    view.t0 = drag.t0 + dt; view.t1 = drag.t1 + dt; draw();
  });
  window.addEventListener('mouseup', function () { drag = null; });
  document.querySelectorAll('[data-zoom]').forEach(function (b) {
    b.addEventListener('click', function () {
      var z = b.getAttribute('data-zoom');
      if (z === 'in') zoom(0.5); else if (z === 'out') zoom(2); else { view.t0 = 0; view.t1 = span; draw(); }
    });
  });
  window.addEventListener('resize', draw);
  draw();
})();
)JS";
}

} // namespace stagecraft::cli
