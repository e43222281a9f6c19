// Searchable pick-lists (Tom Select): every multiple select (units chosen by typing or scanning
// their number), and every long single select in a page's forms (people, tables, units).
document.addEventListener("DOMContentLoaded", () => {
  // A table wider than the screen scrolls inside itself: reachable with the keyboard too.
  document.querySelectorAll("main table, main .table-responsive").forEach((el) => {
    if (el.scrollWidth > el.clientWidth && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
  });
  if (!window.TomSelect) return;
  const noResults = document.documentElement.lang.startsWith("fr") ? "Aucun résultat" : "No results found";
  document.querySelectorAll("main select").forEach((el) => {
    if (el.tomselect || !(el.multiple || el.options.length > 12 || el.dataset.searchable !== undefined)) return;
    // Tom Select moves the label onto its own input: the select it keeps (for the form) keeps its name.
    const label = el.labels && el.labels[0];
    if (label && !el.hasAttribute("aria-label")) el.setAttribute("aria-label", label.textContent.trim().replace(/\s*:$/, ""));
    new TomSelect(el, {
      plugins: el.multiple ? ["remove_button"] : [],
      maxOptions: null,
      hidePlaceholder: true,
      selectOnTab: true,
      render: { no_results: () => `<div class="no-results">${noResults}</div>` },
    });
  });
});
