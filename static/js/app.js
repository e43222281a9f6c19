// Searchable pick-lists (Tom Select): every multiple select (units chosen by typing or scanning
// their number), and every long single select in a page's forms (people, tables, units).
document.addEventListener("DOMContentLoaded", () => {
  if (!window.TomSelect) return;
  document.querySelectorAll("main select").forEach((el) => {
    if (el.tomselect || !(el.multiple || el.options.length > 12 || el.dataset.searchable !== undefined)) return;
    new TomSelect(el, {
      plugins: el.multiple ? ["remove_button"] : [],
      maxOptions: null,
      hidePlaceholder: true,
      selectOnTab: true,
    });
  });
});
