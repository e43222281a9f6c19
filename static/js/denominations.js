// Denomination grids of the cash forms: each line's amount and the running total as one types,
// compared with the sum expected (the table's fixed sum, or the minimum avance). Without this
// script the form posts the same quantities and the page shows the totals after sending.
(() => {
  const lang = document.documentElement.lang || "fr";
  const euros = new Intl.NumberFormat(lang, { style: "currency", currency: "EUR" });
  const gapText = {
    fr: { over: "au-dessus de la somme attendue", under: "manquent pour la somme attendue", min: "manquent pour l'avance minimale", ok: "Le total est égal à la somme attendue." },
    en: { over: "above the expected sum", under: "missing for the expected sum", min: "missing for the minimum avance", ok: "The total equals the expected sum." },
  }[lang.slice(0, 2)] || null;

  // Other values typed as "valeur x quantité [nature]", one a line.
  const typedTotal = (text) =>
    text.split("\n").reduce((sum, line) => {
      const m = line.trim().replace("×", "x").replace("*", "x").match(/^([\d.,]+)\s+x\s+(\d+)/i);
      return m ? sum + parseFloat(m[1].replace(",", ".")) * parseInt(m[2], 10) : sum;
    }, 0);

  const update = (grid) => {
    let total = 0;
    grid.querySelectorAll("tr[data-value]").forEach((row) => {
      const qty = parseInt(row.querySelector("input").value, 10);
      const line = Number.isInteger(qty) && qty > 0 ? qty * parseFloat(row.dataset.value) : 0;
      row.querySelector(".denomination-line").textContent = line ? euros.format(line) : "";
      total += line;
    });
    const other = grid.querySelector("textarea");
    if (other) total += typedTotal(other.value);
    grid.querySelector(".denominations-total").textContent = euros.format(total);
    const gapRow = grid.querySelector(".denominations-gap");
    if (!gapRow || grid.dataset.expected === undefined || !gapText) return;
    const expected = parseFloat(grid.dataset.expected);
    const exact = grid.dataset.exact !== undefined;
    const gap = Math.round((total - expected) * 100) / 100;
    let text = "";
    if (gap === 0 && exact) text = gapText.ok;
    else if (gap < 0) text = `${euros.format(-gap)} ${exact ? gapText.under : gapText.min}`;
    else if (gap > 0 && exact) text = `${euros.format(gap)} ${gapText.over}`;
    gapRow.hidden = !text || total === 0;
    gapRow.querySelector("output").textContent = text;
    gapRow.classList.toggle("text-danger", gap !== 0 && (exact || gap < 0));
  };

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("[data-denominations]").forEach((grid) => {
      grid.addEventListener("input", () => update(grid));
      update(grid);
    });
  });
})();
