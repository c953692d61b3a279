"use strict";
// dsplan serve's page: upload, options, the plan's HTML report, downloads on demand.
// Served as /page.js: the Content-Security-Policy runs no inline script.
let defaults = null, session = null, loaded = "", timer = null, generation = 0;
// The plan request under way (aborted when a newer one starts); the host price rows of the
// last estate plan ([{sku, hosts, usd_per_hour, usd_per_month}]); the prices typed, by
// "sku|term" (kept when a row or term goes away, so coming back restores them).
let inflight = null, priceRows = [], typedPrices = {};
// The host price range the server takes, USD per host-hour (`/api/choices`): the price
// fields' min and max.
let priceRange = { min: "0.5", max: "1000" };
const $ = (id) => document.getElementById(id);

// Settings the page sets without a field of their name.
const SETTING_WORDS = { host_price_file: "Host price", price_file: "Host price",
  per_cluster: "Mode (one plan per source cluster)", io_profile: "I/O profile" };
// A setting's name (`peak_months`) as the page names its control (Peak months); null for a
// setting the page does not offer.
function pageName(name) {
  if (SETTING_WORDS[name]) return SETTING_WORDS[name];
  const el = document.querySelector('[data-opt="' + name + '"]') ||
    document.querySelector('[data-opt$=".' + name + '"]') || (name === "hosts" ? $("hosts") : null);
  return el ? labelOf(el) : null;
}
// Setting names in backticks (`peak_months`) become the form's words (Peak months).
function inWords(text) {
  return text.replace(/`([a-z_]+)`/g, (m, name) => pageName(name) || m);
}
// The report names each setting by the command's flag in a span of its name
// (data-setting): on the page, the page's control, or a setting of the command in words.
function reportInPageWords() {
  for (const el of $("report").querySelectorAll("[data-setting]")) {
    const name = el.dataset.setting;
    el.textContent = pageName(name) ||
      name.replace(/_/g, " ") + " (a setting of the dsplan command, not of this page)";
  }
}
function labelOf(el) {
  const label = el.closest("label");
  // The label's words without its units ("Max datastores (per cluster)": Max datastores).
  return label ? label.firstChild.textContent.trim().replace(/\s*\([^)]*\)$/, "")
    : el.dataset.opt || el.id;
}
function setError(text) { $("error").textContent = inWords(text || ""); }
const shown = () => $("main").classList.contains("planned");
// The shown plan no longer matches the options (or the upload): a banner says so
// (`why`: the previous options', or a re-plan under way) and the results are busy.
function markStale(stale, why) {
  const on = stale && shown();
  $("results").classList.toggle("stale", on);
  $("results").setAttribute("aria-busy", on ? "true" : "false");
  $("stale-note").hidden = !on;
  $("stale-note").textContent = why || "These figures are for the previous options.";
  $("monthly-cost").dataset.stale = stale ? "1" : "";
}
// A headline figure in USD, or, when null, `missing` ("unknown") and why.
function setFigure(id, value, missing, why) {
  $(id).textContent = value === null ? missing : usd(value);
  $(id).dataset.usd = value === null ? "" : value.toFixed(2);
  $(id).previousElementSibling.hidden = value === null;
  $(id).parentElement.classList.toggle("unknown", value === null);
  $(id + "-why").textContent = value === null ? why || "" : "";
}
// No plan shown: the figures say "none yet", the report `text` (by default, what to do).
function clearPlan(text) {
  setFigure("monthly-cost", null, "none yet"); setFigure("yearly-cost", null, "none yet");
  $("decision").textContent = "none yet";
  $("cost-label").textContent = "";
  const p = document.createElement("p");
  p.textContent = text || "Upload an RVTools export to see its plan.";
  $("report").replaceChildren(p);
  $("main").classList.remove("planned");
  markStale(false);
}
function setStatus(text) { $("status").textContent = text || ""; }

async function errorText(response) {
  try { const body = await response.json(); return body.error || response.statusText; }
  catch (_) { return response.status + " " + response.statusText; }
}

// A default by its form name: a field, or a field of a field (`io_profile.read_pct`).
function defaultOf(name) {
  return name.split(".").reduce((o, key) => (o === null || o === undefined ? o : o[key]), defaults);
}
// `vsan_policy` as the library serialises it ("Auto", {"Named": "raid5-ftt1"}) in words.
function policyWords(v) { return v && typeof v === "object" ? v.Named : String(v).toLowerCase(); }

// The catalog's lists into the region and SKU dropdowns.
function fillChoices(choices) {
  for (const el of document.querySelectorAll("[data-choices]")) {
    const list = el.dataset.choices === "region"
      ? choices.regions.map((r) => [r.region, r.name])
      : choices.skus.map((s) => [s.sku, s.sku + " (" + s.cores + " cores, " + s.memory_gb + " GB)"]);
    for (const [value, text] of list) {
      const o = document.createElement("option");
      o.value = value; o.textContent = text;
      el.appendChild(o);
    }
  }
  if (choices.min_usd_per_host_hour !== undefined) {
    priceRange = { min: String(choices.min_usd_per_host_hour),
      max: String(choices.max_usd_per_host_hour) };
  }
  $("host-prices-help").textContent += " From " + priceRange.min + " to " +
    Number(priceRange.max).toLocaleString("en-US") + " USD per host-hour.";
}

function fillForm() {
  for (const el of document.querySelectorAll("[data-opt]")) {
    const v = defaultOf(el.dataset.opt);
    if (el.type === "checkbox") el.checked = !!v;
    else if (el.dataset.kind === "policy") el.value = policyWords(v);
    else el.value = v === null || v === undefined ? "" : v;
  }
}

// Each help text describes its field; fields that do not apply to the mode are disabled.
function describeFields() {
  let n = 0;
  for (const help of document.querySelectorAll(".field .help")) {
    const control = help.parentElement.querySelector("input, select");
    if (!control) continue;
    help.id = "help-" + (++n);
    control.setAttribute("aria-describedby", help.id);
  }
}
function applyMode() {
  const mode = $("mode").value;
  for (const field of document.querySelectorAll(".field[data-mode]")) {
    const on = field.dataset.mode.split(" ").includes(mode);
    field.classList.toggle("off", !on);
    for (const c of field.querySelectorAll("input, select")) c.disabled = !on;
  }
}

// A number field's value, or a problem in words; "" (empty) is absent: the default.
function numberOf(el) {
  if (el.validity.badInput) return { problem: labelOf(el) + ": a number" };
  if (el.value.trim() === "") return {};
  const v = Number(el.value);
  if (!Number.isFinite(v)) return { problem: labelOf(el) + ": a number" };
  if (el.dataset.int && !Number.isInteger(v)) return { problem: labelOf(el) + ": a whole number" };
  if (el.min !== "" && v < Number(el.min)) return { problem: labelOf(el) + ": at least " + el.min };
  if (el.max !== "" && v > Number(el.max)) return { problem: labelOf(el) + ": at most " + el.max };
  return { value: v };
}

// Form names with a dot (`io_profile.read_pct`) become one object field, its missing parts
// the defaults' (the library takes the I/O profile whole).
function nest(o) {
  for (const key of Object.keys(o)) {
    const [outer, inner] = key.split(".");
    if (inner === undefined) continue;
    o[outer] = Object.assign({}, defaults[outer], o[outer]);
    o[outer][inner] = o[key];
    delete o[key];
  }
}

// A field's problem shown under it, or cleared: the field is marked invalid
// (`aria-invalid`) and the message, under it, is the first of its descriptions.
function markField(el, problem) {
  el.classList.toggle("invalid", !!problem);
  el.title = problem || "";
  const noteId = el.id + "-problem";
  let note = $(noteId);
  const ids = (el.getAttribute("aria-describedby") || "").split(" ")
    .filter((id) => id && id !== noteId);
  if (problem) {
    el.setAttribute("aria-invalid", "true");
    if (!note) {
      note = document.createElement("small");
      note.className = "problem"; note.id = noteId;
      (el.closest(".field") || el.parentElement).appendChild(note);
    }
    note.textContent = problem;
    ids.unshift(noteId);
  } else {
    el.removeAttribute("aria-invalid");
    if (note) note.remove();
  }
  if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
  else el.removeAttribute("aria-describedby");
}
// The first field marked invalid is brought into view (on a phone the message at the top
// of the plan is screens away), and focused unless the user is typing in it already.
function showFieldProblem() {
  const el = $("options").querySelector('[aria-invalid="true"]');
  if (!el) return;
  if (document.activeElement !== el) el.focus({ preventScroll: true });
  const field = el.closest(".field") || el, box = field.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) field.scrollIntoView({ block: "center" });
}

// The form as a plan request's options and host prices (empty or disabled fields left
// out: the library's defaults), and the problems found; a field with a problem is marked
// with its message under it.
function request() {
  const o = {}, problems = [];
  const take = (el, name, into) => {
    const got = numberOf(el);
    markField(el, got.problem);
    if (got.problem) problems.push(got.problem);
    else if (got.value !== undefined) into[name] = got.value;
  };
  for (const el of document.querySelectorAll("[data-opt]")) {
    const name = el.dataset.opt;
    if (el.disabled) continue;
    if (el.type === "number") take(el, name, o);
    else if (el.type === "checkbox") o[name] = el.checked;
    else if (el.dataset.kind === "optstr") { if (el.value.trim() !== "") o[name] = el.value.trim(); }
    else if (el.dataset.int) o[name] = Number(el.value);
    else if (el.type === "text") { if (el.value.trim() !== "") o[name] = el.value.trim(); }
    else o[name] = el.value;
  }
  nest(o);
  const mode = $("mode").value;
  markField($("hosts"), null);
  if (mode === "hosts") {
    take($("hosts"), "hosts", o);
    if (!problems.length && o.hosts === undefined) {
      const problem = labelOf($("hosts")) + ": a whole number from 3 to 16 for one cluster";
      markField($("hosts"), problem);
      problems.push(problem);
    }
  }
  o.per_cluster = mode === "per_cluster";
  // One typed price per row shown (the plan's SKUs on the Host term); empty rows: the
  // built-in prices.
  const host_prices = [];
  for (const el of $("host-price-rows").querySelectorAll("input[data-price-sku]")) {
    if (el.disabled) { markField(el, null); continue; }
    const price = {};
    take(el, "usd_per_hour", price);
    if (price.usd_per_hour !== undefined) {
      host_prices.push({ sku: el.dataset.priceSku, term: el.dataset.priceTerm,
        usd_per_hour: price.usd_per_hour });
    }
  }
  return { body: { session, options: o, host_prices }, problems };
}

// n and the noun, plural unless n is 1: counted(1, "VM") is "1 VM", counted(3, "VM") "3 VMs".
function counted(n, noun) {
  return n + " " + noun + (n === 1 ? "" : "s");
}

function showUploadSummary(body) {
  const s = body.summary, box = $("upload-summary");
  box.replaceChildren();
  const p = document.createElement("p");
  p.textContent = body.files.join(", ") + ": " + counted(s.vm_count, "VM") + " (" +
    s.powered_on_count + " powered on), " + counted(s.clusters.length, "cluster") + ", " +
    counted(s.host_count, "ESXi host") + ", " + counted(body.warnings.length, "reading warning") +
    ".";
  box.appendChild(p);
  if (body.warnings.length) {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = "Reading warnings (" + body.warnings.length + ")";
    const ul = document.createElement("ul");
    for (const w of body.warnings) {
      const li = document.createElement("li"); li.textContent = inWords(w); ul.appendChild(li);
    }
    details.append(summary, ul);
    box.appendChild(details);
  }
  box.hidden = false;
}

function upload(files) {
  if (!files.length) return;
  // A re-plan scheduled or under way is for the options of the previous upload: cancelled,
  // so its answer cannot wipe this upload's error or status.
  const pending = timer !== null || inflight !== null;
  clearTimeout(timer); timer = null;
  cancelPlan();
  const mine = generation;
  setError("");
  const form = new FormData();
  for (const f of files) form.append("files", f, f.name);
  const xhr = new XMLHttpRequest();
  // The session shown is dropped first if the server needs its memory for this upload.
  xhr.open("POST", session ? "/api/upload?replaces=" + encodeURIComponent(session) : "/api/upload");
  $("progress").hidden = false; $("progress").value = 0;
  setStatus("uploading…");
  xhr.upload.onprogress = (e) => {
    if (e.lengthComputable) $("progress").value = 100 * e.loaded / e.total;
  };
  xhr.upload.onload = () => { $("progress").value = 100; setStatus("reading…"); };
  const failed = (text) => {
    $("progress").hidden = true;
    if (mine !== generation) return;
    if (session) {
      setError(text + "\n\nThe previous export (" + loaded + ") is still loaded; the plan shown is its plan.");
      setStatus("the previous export is still loaded: " + loaded);
      if (pending) markStale(true);
    } else { setStatus(""); setError(text); }
  };
  xhr.onerror = () => failed("upload failed: the server did not answer");
  // The input is emptied once the upload is sent, so choosing the same file again (a
  // corrected export of the same name) uploads it again.
  xhr.onloadend = () => { $("files").value = ""; };
  xhr.onload = () => {
    $("progress").hidden = true;
    let body = {};
    try { body = JSON.parse(xhr.responseText); } catch (_) { body = { error: xhr.statusText }; }
    if (xhr.status !== 200) { failed(body.error || ("HTTP " + xhr.status)); return; }
    if (mine !== generation) return;
    session = body.session; loaded = body.files.join(", ");
    // The previous export's figures and price rows go: nothing shown is of another export.
    priceRows = []; showPriceRows();
    clearPlan("Planning " + loaded + "…");
    showUploadSummary(body);
    setStatus(loaded + ": " + counted(body.summary.vm_count, "VM") + "; planning…");
    replan(0);
  };
  xhr.send(form);
}

// Stops the plan request under way: its answer would be for options since changed (the
// server then drops it too: a newer request of the upload supersedes it).
function cancelPlan() {
  if (inflight) { inflight.abort(); inflight = null; }
  ++generation;
}

// A change re-plans once typing pauses (`delay` ms, debounced): the figures shown are
// marked stale at once and the request under way is cancelled, so only the latest
// options are planned.
function replan(delay) {
  clearTimeout(timer); timer = null;
  if (!session) return;
  cancelPlan();
  markStale(true, "Planning with the new options: these figures are for the previous ones.");
  timer = setTimeout(() => { timer = null; plan(); }, delay);
}

// The host price rows: one per SKU of the last estate plan (the plan's answer names them,
// with their hosts and prices), and one per SKU with a price typed for the Host term; each
// row's field holds the price typed for that SKU and term. Rows are updated in place (a
// field being typed into is never replaced).
function showPriceRows() {
  const term = $("host_term").value;
  const termWords = $("host_term").selectedOptions[0].textContent;
  const rows = priceRows.slice();
  for (const key of Object.keys(typedPrices)) {
    const [sku, t] = key.split("|");
    if (t === term && typedPrices[key] !== "" && !rows.some((r) => r.sku === sku)) {
      rows.push({ sku, hosts: null, usd_per_hour: null, usd_per_month: null });
    }
  }
  const box = $("host-price-rows");
  $("host-prices-none").hidden = rows.length > 0;
  const keep = new Set(rows.map((r) => "price-row-" + r.sku));
  for (const old of box.querySelectorAll(".field")) {
    if (!keep.has(old.id) && !old.contains(document.activeElement)) old.remove();
  }
  let at = $("host-prices-none").nextSibling;
  for (const r of rows) {
    let row = $("price-row-" + r.sku);
    if (!row) {
      row = document.createElement("div");
      row.className = "field"; row.id = "price-row-" + r.sku; row.dataset.mode = "estate";
      const label = document.createElement("label");
      const input = document.createElement("input");
      Object.assign(input, { type: "number", id: "price-" + r.sku, min: priceRange.min,
        max: priceRange.max, step: "any" });
      input.dataset.priceSku = r.sku;
      label.htmlFor = input.id;
      label.append(document.createTextNode(""), input);
      const help = document.createElement("small");
      help.className = "help"; help.id = "price-help-" + r.sku;
      input.setAttribute("aria-describedby", help.id);
      input.addEventListener("input", () => { typedPrices[r.sku + "|" + input.dataset.priceTerm] = input.value; });
      row.append(label, help);
    }
    if (row !== at) box.insertBefore(row, at);
    at = row.nextSibling;
    row.dataset.hosts = r.hosts === null ? "" : String(r.hosts);
    const input = row.querySelector("input");
    if (input.dataset.priceTerm !== term) {
      input.dataset.priceTerm = term;
      input.value = typedPrices[r.sku + "|" + term] || "";
    }
    row.querySelector("label").firstChild.textContent =
      r.sku.toUpperCase() + ", " + termWords + " (USD per host-hour) ";
    // Empty, the plan's price is the built-in one (or there is none).
    if (input.value === "") {
      input.placeholder = r.usd_per_hour === null ? "none built in" : "built-in " + usd(r.usd_per_hour);
    }
    let help = r.hosts === null ? "Not in the plan shown." : counted(r.hosts, "host") + " in the plan";
    if (r.hosts !== null) {
      help += r.usd_per_month === null ? "; no price for this term: the cost leaves them out."
        : ": $" + usd(r.usd_per_month) + " a month.";
    }
    row.querySelector(".help").textContent = help;
  }
  applyMode();
}

const usd = (v) => v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function showPlan(view) {
  setError("");
  // Without a host price the month is unknown, as the report's card says; the ANF part
  // (known) is named beside it.
  const part = view.monthly_cost_usd === null && view.anf_part_usd_per_month !== null
    ? "; " + view.monthly_cost_label + " alone: $" + usd(view.anf_part_usd_per_month) + " a month"
    : "";
  setFigure("monthly-cost", view.monthly_cost_usd, "unknown", (view.monthly_unknown_why || "") + part);
  setFigure("yearly-cost", view.yearly_cost_usd, "unknown", view.yearly_unknown_why);
  $("decision").textContent = view.decision;
  let label;
  if (view.monthly_cost_usd !== null) {
    label = "Monthly: " + view.monthly_cost_label + ", USD per month" +
      (view.base_months ? " (base months)" : "");
    if (view.yearly_cost_usd !== null) label += "; $" + usd(view.yearly_cost_usd) + " per year";
  } else {
    // One SKU ("av64") or several ("av64 and av36p": an AV64 estate's first clusters).
    const skus = view.no_host_price_sku || "a host SKU";
    const several = skus.includes(" and ");
    label = "Monthly: unknown: " + skus + (several ? " have" : " has") +
      " no host price for this term; type " + (several ? "them" : "it") +
      " under Host prices. Known: " + view.monthly_cost_label + ", $" +
      usd(view.anf_part_usd_per_month || 0) + " per month" +
      (view.base_months ? " (base months)" : "");
  }
  $("cost-label").textContent = label;
  if (view.mode === "estate") { priceRows = view.host_prices; showPriceRows(); }
  // The server's HTML report body: every input name in it is escaped by the renderer, and
  // the CSP runs no inline script.
  $("report").replaceChildren();
  $("report").insertAdjacentHTML("beforeend", view.html);
  reportInPageWords();
  $("main").classList.add("planned");
  markStale(false);
  document.body.dataset.shownAt = String(performance.now());
  setStatus("planned (" + view.mode.replace("_", " ") + "): " + loaded);
}

function planFailed(text) {
  setError(text); markStale(true);
  // No plan shown (a new upload's first plan failed): the report says so, and that the
  // message is the reason, not an earlier export's figures.
  if (!shown() && session) clearPlan("No plan of " + loaded + " with these options: see the message above.");
  setStatus("not planned: see the message above the plan");
  showFieldProblem();
}

async function plan() {
  cancelPlan();
  const mine = generation;
  const { body, problems } = request();
  if (problems.length) { planFailed(problems.join("\n")); return; }
  setStatus("planning…");
  markStale(true, "Planning with the new options: these figures are for the previous ones.");
  const controller = new AbortController();
  inflight = controller;
  try {
    const response = await fetch("/api/plan", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal: controller.signal });
    if (mine !== generation) return;
    if (!response.ok) {
      const text = await errorText(response);
      if (mine !== generation) return;
      if (response.status === 410) { session = null; clearPlan(); }
      planFailed(text); return;
    }
    const view = await response.json();
    if (mine !== generation) return;
    showPlan(view);
  } catch (e) {
    // Aborted: a newer change took over.
    if (mine !== generation || e.name === "AbortError") return;
    planFailed("the server did not answer: " + e.message);
  } finally {
    if (inflight === controller) inflight = null;
  }
}

// A download's file name: the server's (`dsplan-<the first uploaded file's stem>-<day>.<format>`,
// from its Content-Disposition: `filename*=UTF-8''...` with the export's own letters, else
// the ASCII `filename="..."`), else dsplan-plan.<format>.
function downloadName(response, format) {
  const header = response.headers.get("Content-Disposition") || "";
  const utf8 = /filename\*=UTF-8''([^;\s]+)/i.exec(header);
  if (utf8) {
    try { return decodeURIComponent(utf8[1]); } catch (_) { /* the ASCII name below */ }
  }
  const given = /filename="([^"]+)"/.exec(header);
  return given ? given[1] : "dsplan-plan." + format;
}

// A download is made when its button is clicked, from the options shown.
async function download(format) {
  if (!session) { setError("upload an export first"); return; }
  const { body, problems } = request();
  if (problems.length) { planFailed(problems.join("\n")); return; }
  setStatus("preparing the " + format + " download…");
  // A refused or broken download ends the status line with its failure.
  const failed = (text) => {
    setError(text);
    setStatus("the " + format + " download failed: see the message above the plan");
  };
  let response, blob;
  try {
    response = await fetch("/api/download/" + format, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    if (!response.ok) { failed(await errorText(response)); return; }
    blob = await response.blob();
  } catch (e) {
    failed("the " + format + " download failed: the server did not answer (" + e.message + ")");
    return;
  }
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  const name = downloadName(response, format);
  a.href = url; a.download = name;
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  setStatus("downloaded " + name);
}

async function start() {
  const [d, c] = await Promise.all([fetch("/api/defaults"), fetch("/api/choices")]);
  defaults = await d.json();
  fillChoices(await c.json());
  fillForm();
  describeFields();
  applyMode();
  $("files").addEventListener("change", (e) => upload(e.target.files));
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault(); drop.classList.remove("over"); upload(e.dataTransfer.files);
  });
  $("mode").addEventListener("change", applyMode);
  $("host_term").addEventListener("change", showPriceRows);
  $("options").addEventListener("input", () => replan(400));
  // A number field's edits come as `input` events; its `change` on leaving it would
  // cancel the plan under way for the same options.
  $("options").addEventListener("change", (e) => {
    if (e.target.type !== "number") replan(400);
  });
  $("options").addEventListener("submit", (e) => e.preventDefault());
  for (const b of document.querySelectorAll("[data-download]")) {
    b.addEventListener("click", () => download(b.dataset.download));
  }
  document.body.dataset.ready = "1";
}
start().catch((e) => setError("cannot start: " + e));
