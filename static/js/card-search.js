// Name suggestions as you type, from the autocomplete API.
(function () {
  const input = document.getElementById("q"), list = document.getElementById("card-names");
  let timer;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    const q = input.value.trim();
    if (q.length < 2 || /[:<>=!"()-]/.test(q)) { list.innerHTML = ""; return; }
    timer = setTimeout(async () => {
      const response = await fetch("/api/cards/autocomplete/?q=" + encodeURIComponent(q));
      if (!response.ok) return;
      const data = await response.json();
      list.innerHTML = "";
      for (const item of data.results) { const o = document.createElement("option"); o.value = item.name; list.appendChild(o); }
    }, 150);
  });
  // Changing a facet runs the search at once.
  document.querySelectorAll(".facets select").forEach((s) => s.addEventListener("change", () => s.form.submit()));
})();
