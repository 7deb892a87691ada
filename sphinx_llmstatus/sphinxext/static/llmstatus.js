// sphinx-llmstatus: a printed page shows every folded section of an entry whole.
window.addEventListener("beforeprint", () => {
  for (const fold of document.querySelectorAll("details.llmstatus-fold:not([open])")) {
    fold.open = true;
    fold.dataset.llmstatusPrinted = "";
  }
});
window.addEventListener("afterprint", () => {
  for (const fold of document.querySelectorAll("details.llmstatus-fold[data-llmstatus-printed]")) {
    fold.open = false;
    delete fold.dataset.llmstatusPrinted;
  }
});
