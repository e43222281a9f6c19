// Searchable pick-lists: every multiple select, and the selects a form marks data-searchable.
document.addEventListener("DOMContentLoaded", () => {
  if (!window.TomSelect) return;
  document.querySelectorAll("select[multiple], select[data-searchable]").forEach((el) => {
    if (el.tomselect) return;
    new TomSelect(el, { plugins: el.multiple ? ["remove_button"] : [], maxOptions: null, hidePlaceholder: true });
  });
});
