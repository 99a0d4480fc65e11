// An Aventuria combat's table: heroes, opponents, the round, the decision and its options, the report.
(function () {
  const base = document.currentScript.dataset.session;
  const token = document.querySelector("[name=csrfmiddlewaretoken]").value;
  let view = null, lastAction = 0, queue = Promise.resolve();
  const $ = (id) => document.getElementById(id);
  const text = (node, value) => { node.textContent = value; return node; };
  const li = (value) => text(document.createElement("li"), value);
  const percent = (value) => Math.round(value * 100) + "%";
  function button(label, onClick) {
    const node = text(document.createElement("button"), label);
    node.type = "button"; node.className = "secondary option";
    node.addEventListener("click", onClick);
    return node;
  }
  const exclusive = (work) => (queue = queue.then(work).catch((error) => console.error(error)));
  async function redraw() {
    const response = await fetch(base, {credentials: "same-origin"});
    if (!response.ok) return;
    const fresh = await response.json();
    const changed = !view || fresh.version !== view.version;
    view = fresh;
    text($("version"), view.version); text($("status"), view.status);
    text($("round"), view.round); text($("time"), view.time_counters);
    text($("fate-pool"), view.fate_pool); text($("starting"), view.starting_hero);
    text($("henchmen"), view.henchmen_left);
    $("heroes").replaceChildren(...view.heroes.map((hero) => {
      const hand = Array.isArray(hero.hand) ? "hand: " + (hero.hand.map((c) => c.name).join(", ") || "empty") : `${hero.hand} cards in hand`;
      const gear = hero.in_play.map((c) => c.name + (c.exhausted ? " (exhausted)" : "")).join(", ");
      return li(`${hero.name}${hero.unconscious ? " (unconscious)" : ""}: ${hero.life} life points · ${hero.fate} fate · endurance ${hero.endurance.ready} ready, ${hero.endurance.exhausted} exhausted${gear ? " · in play: " + gear : ""} · ${hand}`);
    }));
    $("opponents").replaceChildren(...view.opponents.map((o) => li(`${o.name} (${o.kind}): ${o.life} of ${o.max_life} life points · dodge ${o.dodge === null ? "—" : o.dodge} · armor ${o.armor} · ${o.actions} action${o.actions === 1 ? "" : "s"}`)));
    const pending = view.pending;
    if (!pending) text($("prompt"), `The combat is over: the heroes ${view.status === "won" ? "won" : "were defeated"}.`);
    else if (pending.waiting_for) text($("prompt"), `${pending.prompt} (waiting for ${pending.waiting_for.map((p) => view.session.players[p] || p).join(", ")})`);
    else text($("prompt"), pending.prompt + (pending.test ? ` (a reroll succeeds ${percent(pending.test.success_float)})` : ""));
    if (changed || !pending) {
      const options = pending && pending.options ? pending.options.map((o) => button(o.label, () => answer(o.action))) : [];
      if (pending && pending.select) options.unshift(selection(pending.select));
      if (!pending && view.session.party) options.push(finishBox());
      $("options").replaceChildren(...options);
    }
    const events = await (await fetch(base + "events/?after=" + lastAction, {credentials: "same-origin"})).json();
    for (const action of events.actions.filter((a) => a.number > lastAction)) {
      const entry = li(`${view.session.players[action.player] || action.player}: ${action.label}`);
      if (action.report.length) {
        const lines = document.createElement("ul");
        lines.replaceChildren(...action.report.map(li));
        entry.appendChild(lines);
      }
      $("log").appendChild(entry);
      lastAction = action.number;
    }
  }
  // A party's combat, once over: its result and adventure points into the campaign log.
  function finishBox() {
    if (view.session.logged) return text(document.createElement("p"), `The result is in the party's log (entry #${view.session.logged}).`);
    return button("Write the result to the campaign log", () => exclusive(async () => {
      const response = await fetch(base + "finish/", {method: "POST", credentials: "same-origin", headers: {"X-CSRFToken": token}});
      if (!response.ok) { const body = await response.json(); $("refusal").hidden = false; text($("refusal"), body.error.message); return; }
      await redraw();
    }));
  }
  // Fox Hand and endurance: tick up to `count` cards.
  function selection(select) {
    const names = {};
    for (const hero of view.heroes) {
      for (const card of Array.isArray(hero.hand) ? hero.hand : []) names[card.card] = card.name;
      for (const card of hero.in_play) names[card.card] = card.name + " (in play)";
    }
    const form = document.createElement("form");
    form.className = "selection";
    for (const id of select.cards) {
      const label = document.createElement("label"), box = document.createElement("input");
      box.type = "checkbox"; box.value = id;
      label.append(box, " " + (names[id] || id));
      form.appendChild(label);
    }
    const confirm = text(document.createElement("button"), select.type === "endurance" ? "Play as endurance" : "Put back and draw");
    confirm.className = "option"; confirm.disabled = true;
    form.addEventListener("change", () => {
      const ticked = form.querySelectorAll("input:checked").length;
      confirm.disabled = ticked === 0 || ticked > select.count;
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      answer({type: select.type, cards: [...form.querySelectorAll("input:checked")].map((box) => box.value)});
    });
    form.appendChild(confirm);
    return form;
  }
  async function answer(action) {
    $("refusal").hidden = true;
    await exclusive(async () => {
      const response = await fetch(base + "actions/", {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": token, "Idempotency-Key": crypto.randomUUID()},
        body: JSON.stringify({version: view.version, action: action})});
      if (!response.ok) { const body = await response.json(); $("refusal").hidden = false; text($("refusal"), body.error.message); }
    });
    await exclusive(redraw);
  }
  exclusive(redraw);
  setInterval(() => exclusive(redraw), 3000);  // other players' moves
})();
