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

// An act that cannot be undone asks once: a form with data-confirm shows its text in a Bootstrap
// modal (what the act will write), and submits only when the person confirms it there.
document.addEventListener("DOMContentLoaded", () => {
  const forms = document.querySelectorAll("form[data-confirm]");
  if (!forms.length || !window.bootstrap) return;
  const fr = document.documentElement.lang.startsWith("fr");
  const modal = document.createElement("div");
  // No fade: the question is there, readable at full contrast, the moment the act is asked.
  modal.className = "modal";
  modal.id = "confirm-act";
  modal.tabIndex = -1;
  modal.setAttribute("aria-labelledby", "confirm-act-title");
  modal.setAttribute("aria-hidden", "true");
  modal.innerHTML = `<div class="modal-dialog"><div class="modal-content">
    <div class="modal-header"><h2 class="modal-title h5" id="confirm-act-title"></h2></div>
    <div class="modal-body"><p class="confirm-text"></p></div>
    <div class="modal-footer"><button type="button" class="btn btn-secondary secondary" data-bs-dismiss="modal"></button>
    <button type="button" class="btn btn-primary confirm-ok"></button></div></div></div>`;
  document.body.appendChild(modal);
  const dialog = new bootstrap.Modal(modal);
  let pending = null;
  modal.querySelector(".confirm-ok").addEventListener("click", () => {
    if (!pending) return;
    const form = pending;
    pending = null;
    form.dataset.confirmed = "1";
    dialog.hide();
    form.requestSubmit(form._submitter || undefined);
  });
  forms.forEach((form) => {
    form.addEventListener("submit", (event) => {
      if (form.dataset.confirmed === "1") return;
      if (!form.checkValidity()) return;
      event.preventDefault();
      pending = form;
      form._submitter = event.submitter || null;
      modal.querySelector("#confirm-act-title").textContent = form.dataset.confirmTitle || (fr ? "Confirmer" : "Confirm");
      modal.querySelector(".confirm-text").textContent = form.dataset.confirm;
      modal.querySelector("[data-bs-dismiss]").textContent = form.dataset.confirmCancel || (fr ? "Annuler" : "Cancel");
      modal.querySelector(".confirm-ok").textContent = form.dataset.confirmOk || (fr ? "Confirmer" : "Confirm");
      dialog.show();
    });
  });
});
