// The deck editor: each change is checked against the rules (a dry run), Save stores the deck.
(function () {
  const url = document.currentScript.dataset.deck;
  const token = document.querySelector("[name=csrfmiddlewaretoken]").value;
  const verdict = document.getElementById("verdict");
  function deck() {
    const out = {};
    document.querySelectorAll("#deck input").forEach((i) => { const n = parseInt(i.value || "0", 10); if (n > 0) out[i.dataset.uid] = n; });
    return out;
  }
  async function send(dryRun) {
    const response = await fetch(url + (dryRun ? "?dry_run=1" : ""), {method: "PUT", headers: {"Content-Type": "application/json", "X-CSRFToken": token}, body: JSON.stringify({deck: deck()})});
    const body = await response.json();
    if (response.ok) { verdict.className = "summary"; verdict.textContent = dryRun ? "This deck keeps every rule." : "Saved."; }
    else { verdict.className = "error"; verdict.textContent = body.error.message; }
  }
  document.querySelectorAll("#deck input").forEach((i) => i.addEventListener("input", () => send(true)));
  document.getElementById("save").addEventListener("click", () => send(false));
  send(true);
})();
