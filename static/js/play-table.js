// The play table: the session as this player may see it, the decision and its options, the log.
(function () {
  const base = document.currentScript.dataset.session;
  const token = document.querySelector("[name=csrfmiddlewaretoken]").value;
  let version = null, lastAction = 0, view = null;
  const $ = (id) => document.getElementById(id);
  function text(node, value) { node.textContent = value; return node; }
  function li(value) { return text(document.createElement("li"), value); }
  function button(label, onClick, className) {
    const node = text(document.createElement("button"), label);
    node.type = "button"; node.className = className || "secondary option";
    node.addEventListener("click", onClick);
    return node;
  }
  const who = (name) => (view && view.characters[name] ? view.characters[name].card_name : name);
  const post = (url, body) => fetch(url, {method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRFToken": token, "Idempotency-Key": crypto.randomUUID()},
    body: JSON.stringify(body)});
  // One request at a time: the timer, an answer and a refresh never overlap, so an answer is
  // sent with the version just read and the event log is never read twice for one change.
  let queue = Promise.resolve(), refreshQueued = false;
  function exclusive(work) {
    queue = queue.then(work).catch((error) => console.error(error));
    return queue;
  }
  function refresh() {
    if (refreshQueued) return queue;
    refreshQueued = true;
    return exclusive(() => { refreshQueued = false; return redraw(); });
  }
  async function redraw() {
    const response = await fetch(base, {credentials: "same-origin"});
    if (!response.ok) return;
    const fresh = await response.json();
    const changed = !view || fresh.version !== view.version;
    view = fresh; version = view.version;
    text($("version"), view.version);
    text($("status"), view.status + (view.outcome ? " — " + (view.outcome.reason || "") : ""));
    text($("hourglass"), view.hourglass.count);
    text($("hour"), view.hour ? view.hour.name : "—");
    $("locations").replaceChildren(...view.locations.filter(l => l.in_play).map(l => li(`${l.name}: ${l.count} cards${l.characters.length ? " · " + l.characters.map(who).join(", ") : ""}`)));
    const hands = view.you.flatMap(name => Array.isArray(view.characters[name].hand) ? view.characters[name].hand.map(c => `${who(name)}: ${c.name}`) : []);
    $("hand").replaceChildren(...hands.map(li));
    const pending = view.pending;
    text($("prompt"), pending ? pending.prompt + (pending.waiting_for ? ` (waiting for ${pending.waiting_for.map(playerName).join(", ")})` : "") : `The scenario is over: ${view.status}${view.outcome ? " (" + view.outcome.reason + ")" : ""}.`);
    const check = view.check;
    text($("odds"), check && check.odds ? `Dice ${check.dice} against ${check.difficulty}: ${percent(check.odds.chance_float)} (${check.odds.chance})` : "");
    if (changed) {
      $("declare").hidden = true;
      const options = pending && pending.options ? pending.options : [];
      const buttons = options.map(optionButton);
      if (pending && pending.select) buttons.unshift(selection(pending.select));
      $("options").replaceChildren(...buttons);
      finishBox();
    }
    const events = await (await fetch(base + "events/?after=" + lastAction, {credentials: "same-origin"})).json();
    for (const action of events.actions.filter(a => a.number > lastAction)) {
      const entry = li(`${playerName(action.player)}: ${action.label}`);
      entry.className = "action";
      if (action.report.length) {
        const lines = document.createElement("ul");
        lines.replaceChildren(...action.report.map(li));
        entry.appendChild(lines);
      }
      $("log").appendChild(entry);
      lastAction = action.number;
    }
  }
  function playerName(player) { return view.session.players[player] || player; }
  function percent(value) { return (value * 100).toFixed(1) + "%"; }
  function optionButton(option) {
    if (option.declare) return button(option.label + " …", () => declareForm(option), "secondary option declare");
    if (option.enter) return enterForm(option);
    // The exact odds each choice would give, worked out by the engine with the view.
    const chance = option.odds ? ` → ${percent(option.odds.chance_float)}` : "";
    return button(option.label + chance, () => answer(option.action));
  }
  // A declared power in two clicks: the card, then what its power does (the card action
  // defaults to the usual one for its type; change it first if the card says otherwise).
  const USUAL = {weapon: "reveal", spell: "banish", armor: "reveal", item: "recharge", ally: "recharge", blessing: "discard", loot: "reveal"};
  const DICE = ["1d4", "1d6", "1d8", "1d10", "1d12"];
  function presets(window) {
    if (window === "check.skill") return DICE.map(d => [`+${d}`, {effects: [{use_skill: {add: d}}]}]);
    if (window === "check") return [...DICE.map(d => [`+${d}`, {effects: [{add_die: d}]}]), ["+1", {effects: [{add: 1}]}], ["+2", {effects: [{add: 2}]}], ["Bless", {effects: [{bless: 1}]}]];
    if (window === "damage") return [["Reduce 1", {effects: [{reduce_damage: {amount: 1}}]}], ["Reduce 2", {effects: [{reduce_damage: {amount: 2}}]}], ["Reduce 3", {effects: [{reduce_damage: {amount: 3}}]}], ["Reduce all", {effects: [{reduce_damage: {amount: "all"}}]}]];
    if (window === "explore") return [["Explore again", {effects: [{explore_again: true}]}]];
    if (window === "evade") return [["Evade", {effects: [{evade: true}]}]];
    return [["Heal 1", {effects: [{heal: 1}]}], ["Heal 2", {effects: [{heal: 2}]}], ["Draw 1", {effects: [{draw: 1}]}], ["Examine 1", {effects: [{examine: {count: 1}}]}]];
  }
  function cardOf(id) {
    for (const name of view.you) for (const card of view.characters[name].hand || []) if (card.id === id) return card;
    return null;
  }
  function declareForm(option) {
    const box = $("declare"), action = option.action, window = action.power.split(":")[1];
    const card = action.card ? cardOf(action.card) : null;
    const form = document.createElement("div");
    form.className = "declare-form";
    form.appendChild(text(document.createElement("p"), `${option.label}: what does the power do?`));
    let cost = null, skill = null;
    if (action.source === "hand" || action.source === "displayed") {
      cost = document.createElement("select");
      cost.setAttribute("aria-label", "card action");
      for (const choice of option.declare.costs) cost.appendChild(text(new Option(choice, choice), choice));
      cost.value = (card && USUAL[card.type]) || "reveal";
      const label = text(document.createElement("label"), "Card action ");
      label.appendChild(cost); form.appendChild(label);
    }
    if (window === "check.skill") {
      skill = document.createElement("select");
      skill.setAttribute("aria-label", "skill");
      for (const name of Object.keys(view.characters[action.character].skills)) skill.appendChild(new Option(name, name));
      const label = text(document.createElement("label"), "Skill ");
      label.appendChild(skill); form.appendChild(label);
    }
    const printed = document.createElement("input");
    printed.placeholder = "as printed (optional)"; printed.setAttribute("aria-label", "power as printed");
    form.appendChild(printed);
    const row = document.createElement("div");
    row.className = "presets";
    for (const [label, declaration] of presets(window)) {
      row.appendChild(button(label, () => answer(Object.assign({}, action, declaration,
        cost ? {cost: cost.value} : {}, skill ? {skill: skill.value} : {}, printed.value.trim() ? {text: printed.value.trim()} : {})), "option preset"));
    }
    form.appendChild(row);
    box.replaceChildren(form); box.hidden = false;
  }
  function enterForm(option) {
    const form = document.createElement("form");
    form.className = "stack";
    const input = document.createElement("input");
    input.required = true; input.placeholder = option.enter.check; input.setAttribute("aria-label", "check as printed");
    form.append(text(document.createElement("label"), option.label), input, text(document.createElement("button"), "Enter the check"));
    form.addEventListener("submit", (event) => { event.preventDefault(); answer(Object.assign({}, option.action, {check: input.value})); });
    return form;
  }
  function finishBox() {
    const box = $("finish");
    const session = view.session;
    box.hidden = !(view.status !== "playing" && session.party);
    if (box.hidden) return;
    if (session.logged) { box.replaceChildren(text(document.createElement("p"), `The result is in the party's log (entry #${session.logged}).`)); return; }
    box.replaceChildren(button("Write the result to the campaign log", () => exclusive(async () => {
      const response = await fetch(base + "finish/", {method: "POST", credentials: "same-origin", headers: {"X-CSRFToken": token}});
      const body = await response.json();
      if (!response.ok) { $("refusal").hidden = false; text($("refusal"), body.error.message); return; }
      view = null; await redraw();
    }), "option"));
  }
  // A decision that picks cards (discarding for damage, discarding down): tick exactly `count`.
  function selection(select) {
    const names = {};
    for (const name of view.you) for (const card of view.characters[name].hand || []) names[card.id] = card.name;
    const form = document.createElement("form");
    form.className = "selection";
    for (const id of select.cards) {
      const label = document.createElement("label"), box = document.createElement("input");
      box.type = "checkbox"; box.value = id;
      label.append(box, " " + (names[id] || id));
      form.appendChild(label);
    }
    const confirm = text(document.createElement("button"), `Choose ${select.count}`);
    confirm.className = "option";
    confirm.disabled = true;
    form.addEventListener("change", () => { confirm.disabled = form.querySelectorAll("input:checked").length !== select.count; });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      answer({type: "select", cards: [...form.querySelectorAll("input:checked")].map(box => box.value)});
    });
    form.appendChild(confirm);
    return form;
  }
  async function answer(action) {
    $("refusal").hidden = true;
    await exclusive(async () => {
      const response = await post(base + "actions/", {version: version, action: action});
      if (!response.ok) { const body = await response.json(); $("refusal").hidden = false; text($("refusal"), body.error.message); }
    });
    await refresh();
  }
  refresh();
  setInterval(refresh, 3000);  // other players' moves
})();
