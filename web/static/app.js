// The phone's clock goes with every form that asks for it: a Pi without internet
// time takes the time from the phones (kiosk/clock.py). Set again as the form is sent.
document.addEventListener("submit", (event) => {
  const clock = event.target.elements && event.target.elements.phone_clock;
  if (clock) clock.value = String(Date.now());
}, true);

// Only makes the new-game form quicker: the page works without it (every button also submits).
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("game-form");
  const slot = document.getElementById("handicap-slot");
  if (!form || !slot) return;
  const field = (name) => form.elements[name];
  let timer = null;
  let asked = "";
  // The size follows the players while names are typed or tapped; a size tapped by hand stays.
  let follow = false;
  // aria-busy while the box is being redrawn (from the first key typed to the answer shown): a screen
  // reader waits for the new box rather than reading the old one, and the browser tests wait for it
  // before tapping below it, since the buttons under the box move down when it grows.
  const busy = () => slot.setAttribute("aria-busy", "true");
  // Not while a name typed waits for its own answer: an answer to the earlier typing lands meanwhile.
  const settled = () => { if (timer === null) slot.removeAttribute("aria-busy"); };
  // What the kiosk last said each typed name is ("lucja" is Łucja): the winner buttons name the player, not the typing.
  const shown = { a: ["", ""], b: ["", ""] };
  const labels = () => {
    for (const key of ["a", "b"]) {
      const label = form.querySelector(`span[data-name=${key}]`);
      const typed = field(key).value.trim();
      const value = typed && shown[key][0] === typed && shown[key][1] ? shown[key][1] : typed;
      if (label) label.textContent = (value ? label.dataset.won || "%s" : label.dataset.blank || label.textContent).replace("%s", value);
    }
  };
  const refresh = () => {
    const size = (form.querySelector("input[name=size]:checked") || {}).value || "";
    const a = field("a").value.trim();
    const b = field("b").value.trim();
    labels();
    if (!a && !b) { slot.innerHTML = ""; asked = ""; settled(); return; }
    // The kind too: a game that is not rated moves no magnet, so "no magnet would move" is no warning then.
    const kind = (form.querySelector("input[name=kind]:checked") || {}).value || "rated";
    const query = new URLSearchParams({ size, a, b, kind, follow: follow ? "1" : "0" }).toString();
    if (query === asked) { settled(); return; }
    asked = query;
    busy();
    fetch(`${slot.dataset.url}?${query}`, { headers: { Accept: "text/html" } })
      .then((response) => response.text())
      .then((html) => {
        if (query !== asked) return;
        slot.innerHTML = html;
        const answer = document.getElementById("handicap-answer");
        if (answer) {
          shown.a = [a, answer.dataset.a || ""];
          shown.b = [b, answer.dataset.b || ""];
          labels();
        }
        const chosen = answer && form.querySelector(`input[name=size][value="${answer.dataset.size}"]`);
        if (chosen && !chosen.checked) chosen.checked = true;
        const box = document.getElementById("handicap-box");
        const draw = form.querySelector("label.draw");
        const even = box && box.dataset.even === "yes";
        if (draw) {
          draw.hidden = even;
          if (even && field("winner").value === "draw") form.querySelector("input[value=draw]").checked = false;
        }
        settled();  // last: the size ticked and the draw button shown or hidden, nothing below moves any more
      })
      .catch(() => { asked = ""; settled(); });
  };
  const put = (key, nick) => {
    field(key).value = nick;
    follow = true;
    refresh();
  };
  // A name chip fills the first empty player; "did you mean" fixes its own field. No round trip.
  form.addEventListener("click", (event) => {
    const chip = event.target.closest("button.chip");
    if (!chip) return;
    event.preventDefault();
    const key = chip.dataset.field || (field("a").value.trim() ? "b" : "a");
    if (!chip.dataset.field) chip.hidden = true;
    put(key, chip.dataset.nick);
  });
  form.addEventListener("input", (event) => {
    if (event.target.name === "a" || event.target.name === "b") {
      follow = true;
      busy();
    }
    clearTimeout(timer);
    timer = setTimeout(() => { timer = null; refresh(); }, 150);
  });
  form.addEventListener("change", (event) => {
    if (event.target.name === "size") follow = false;
    if (event.target.name !== "anyway") refresh();
  });
  // "Go" on the number pad after the points saves (Enter in a name field only shows the handicap).
  form.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.name === "points") {
      event.preventDefault();
      form.requestSubmit(form.querySelector("button[value=save]"));
    }
  });
  const points = field("points");
  form.addEventListener("change", (event) => {
    if (event.target.name === "by") points.disabled = event.target.value !== "points";
  });
});

// The board opens at this phone's own magnet ("That's me"); a link with its own #place is left alone.
document.addEventListener("DOMContentLoaded", () => {
  const mine = document.getElementById("me");
  if (mine && !window.location.hash) mine.scrollIntoView({ block: "center" });
});
