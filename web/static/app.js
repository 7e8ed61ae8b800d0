// The phone's clock goes with every form that asks for it: a Pi without internet
// time takes the time from the phones (kiosk/clock.py). Set again as the form is sent.
document.addEventListener("submit", (event) => {
  const clock = event.target.elements && event.target.elements.phone_clock;
  if (clock) clock.value = String(Date.now());
}, true);

// Only makes the new-game form quicker: the page works without it.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.getElementById("game-form");
  const slot = document.getElementById("handicap-slot");
  if (!form || !slot) return;
  const field = (name) => form.elements[name];
  let timer = null;
  let asked = "";
  const refresh = () => {
    const size = (form.querySelector("input[name=size]:checked") || {}).value || "";
    const a = field("a").value.trim();
    const b = field("b").value.trim();
    for (const [key, value] of [["a", a], ["b", b]]) {
      const label = form.querySelector(`span[data-name=${key}]`);
      if (label) label.textContent = (value ? label.dataset.won || "%s" : label.dataset.blank || label.textContent).replace("%s", value);
    }
    if (!a || !b) { slot.innerHTML = ""; return; }
    const query = new URLSearchParams({ size, a, b }).toString();
    if (query === asked) return;
    asked = query;
    fetch(`${slot.dataset.url}?${query}`, { headers: { Accept: "text/html" } })
      .then((response) => response.text())
      .then((html) => {
        if (query !== asked) return;
        slot.innerHTML = html;
        const box = document.getElementById("handicap-box");
        const draw = form.querySelector("label.draw");
        const even = box && box.dataset.even === "yes";
        if (draw) {
          draw.hidden = even;
          if (even && field("winner").value === "draw") form.querySelector("input[value=draw]").checked = false;
        }
      })
      .catch(() => { asked = ""; });
  };
  form.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(refresh, 150); });
  form.addEventListener("change", refresh);
  const points = field("points");
  form.addEventListener("change", (event) => {
    if (event.target.name === "by") points.disabled = event.target.value !== "points";
  });
});
