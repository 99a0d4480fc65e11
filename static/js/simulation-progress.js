// A running simulation's page: poll its progress from the API, move the bar, and show the
// result (rendered by the server) once it ends or every few chunks.
(() => {
  const section = document.getElementById("progress-section");
  if (!section || section.dataset.status !== "running") return;
  const bar = document.getElementById("bar");
  const done = document.getElementById("done");
  const status = document.getElementById("status");
  let shown = Number(done.textContent);
  const poll = async () => {
    const answer = await fetch(section.dataset.poll, { headers: { Accept: "application/json" } });
    if (!answer.ok) { status.textContent = `progress unavailable (${answer.status}); reload the page`; return; }
    const body = await answer.json();
    bar.value = body.done;
    done.textContent = body.done;
    status.textContent = body.status;
    if (body.status !== "running" || body.done - shown >= body.games / 4) { window.location.reload(); return; }
    setTimeout(poll, 1000);
  };
  setTimeout(poll, 1000);
  const cancel = document.getElementById("cancel");
  if (cancel) {
    cancel.addEventListener("submit", async (event) => {
      event.preventDefault();
      const token = cancel.querySelector("[name=csrfmiddlewaretoken]").value;
      await fetch(cancel.action, { method: "POST", headers: { "X-CSRFToken": token } });
      window.location.reload();
    });
  }
})();
