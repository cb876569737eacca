// kgaudit reviewer workbench: keyboard shortcuts only (every page works without this file).
// j / k: next / previous item (queue row or audit item); c: confirm the focused item;
// x: overturn it (focuses the reason; Enter in the reason submits); n: note (same);
// ] / [: next / previous audit in the queue (on the queue: next / previous page);
// Enter on a queue row opens it; ?: help.
(function () {
  "use strict";
  function items() {
    return Array.prototype.slice.call(document.querySelectorAll("article.item, tr.row"));
  }
  function current() {
    var list = items();
    var el = document.activeElement;
    while (el && list.indexOf(el) < 0) { el = el.parentElement; }
    return el;
  }
  function move(step) {
    var list = items();
    if (!list.length) { return; }
    var at = list.indexOf(current());
    var open = list.filter(function (e) { return e.classList.contains("is-open"); });
    var next;
    if (at < 0) { next = open[0] || list[0]; }
    else { next = list[Math.min(list.length - 1, Math.max(0, at + step))]; }
    next.setAttribute("tabindex", "0");
    next.focus();
    next.scrollIntoView({block: "center"});
  }
  function within(sel) {
    var el = current();
    return el ? el.querySelector(sel) : null;
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    var t = ev.target;
    var typing = t && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || t.tagName === "SELECT");
    if (typing) {
      if (t.tagName === "TEXTAREA" && ev.key === "Enter" && !ev.shiftKey && t.value.trim()) {
        ev.preventDefault();
        t.form.requestSubmit();
      } else if (ev.key === "Escape") {
        t.blur();
      }
      return;
    }
    var el;
    switch (ev.key) {
      case "j": move(1); break;
      case "k": move(-1); break;
      case "c":
        el = within("form.confirm button");
        if (el) { el.click(); } else { return; }
        break;
      case "x":
        el = within("form.overturn textarea");
        if (el) { el.focus(); } else { return; }
        break;
      case "n":
        el = within("form.note textarea");
        if (el) { el.focus(); } else { return; }
        break;
      case "]":
        el = document.getElementById("next-audit") || document.querySelector("a[rel=next]");
        if (el) { window.location.href = el.href; } else { return; }
        break;
      case "[":
        el = document.getElementById("prev-audit") || document.querySelector("a[rel=prev]");
        if (el) { window.location.href = el.href; } else { window.history.back(); }
        break;
      case "Enter":
        el = current();
        if (el && el.dataset.href) { window.location.href = el.dataset.href; } else { return; }
        break;
      case "?":
        el = document.querySelector("footer");
        if (el) { el.classList.toggle("show"); el.scrollIntoView(); }
        break;
      default: return;
    }
    ev.preventDefault();
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("tr.row").forEach(function (r) { r.setAttribute("tabindex", "0"); });
    var hash = window.location.hash ? decodeURIComponent(window.location.hash.slice(1)) : "";
    var target = hash ? document.getElementById(hash) : null;
    var first = document.querySelector("article.item.is-open");
    if (target && !target.classList.contains("is-open") && first) { target = first; }
    if (target || first) { (target || first).focus(); }
  });
})();
