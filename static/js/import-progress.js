// The admin's import page: the job's progress, polled until it is done or has failed.
(function () {
  const progressUrl = document.currentScript.dataset.progress;
  (async function poll() {
    const response = await fetch(progressUrl);
    const data = await response.json();
    document.querySelector("#status strong").textContent = data.status;
    document.getElementById("fill").style.width = data.percent + "%";
    document.getElementById("bar").setAttribute("aria-valuenow", data.percent);
    document.getElementById("counts").textContent = data.total ? `${data.processed} of ${data.total} cards` : "";
    if (data.status === "done") {
      document.getElementById("result").textContent = JSON.stringify(data.summary, null, 2);
    } else if (data.status === "failed") {
      document.getElementById("result").textContent = data.errors.map(e => `${e.path}:${e.line || ""} ${e.record} ${e.field} ${e.message}`).join("\n");
    } else {
      setTimeout(poll, 500);
    }
  })();
})();
