/* Passkeys (WebAuthn). A form with a hidden "…passkey" field is a signature: before it is sent,
   it is tried with the X-Passkey-Probe header (nothing is kept); while the act waits for a
   signer's passkey, the answer holds the request options, whose challenge is the act's digest, and
   the field to put the browser's assertion in (the author's, then each countersigner's; one more
   for each further entry the act writes in a signer's name). A button marked data-passkey-register
   registers a new passkey: options from its data-options URL, the credential sent to data-url. */
(function () {
  "use strict";
  // The browser's own refusals, said in the page's language (the script tag carries the texts).
  var said = (document.currentScript || {}).dataset || {};
  var REFUSALS = { NotAllowedError: said.notAllowed, SecurityError: said.security, InvalidStateError: said.invalidState };
  function why(error) { return REFUSALS[error && error.name] || (error && error.message) || String(error); }
  function toBytes(text) {
    var b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (b64.length % 4) b64 += "=";
    return Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); });
  }
  function toText(buffer) {
    var bytes = new Uint8Array(buffer), s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function ids(list) {
    return (list || []).map(function (c) { return Object.assign({}, c, { id: toBytes(c.id) }); });
  }
  function csrf(form) {
    var field = (form || document).querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }
  function credentialJSON(credential) {
    var r = credential.response, response = { clientDataJSON: toText(r.clientDataJSON) };
    if (r.authenticatorData) response.authenticatorData = toText(r.authenticatorData);
    if (r.signature) response.signature = toText(r.signature);
    if (r.userHandle) response.userHandle = toText(r.userHandle);
    if (r.attestationObject) response.attestationObject = toText(r.attestationObject);
    if (r.getTransports) response.transports = r.getTransports();
    return JSON.stringify({
      id: credential.id, rawId: toText(credential.rawId), type: credential.type, response: response,
      clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {}
    });
  }
  function showError(form, message) {
    var box = form.querySelector(".passkey-error");
    if (!box) {
      box = document.createElement("div");
      box.className = "alert alert-danger passkey-error";
      box.setAttribute("role", "alert");
      form.prepend(box);
    }
    box.textContent = message;
  }
  async function sign(form) {
    var fields = form.querySelectorAll("input[type=hidden][name$=passkey]"), given = {}, asked = {};
    fields.forEach(function (field) { field.value = ""; });
    // One passkey touch per entry a signer signs (an act may write several in their name): the
    // assertions gathered for a field are sent as one credential, or a list of them.
    for (var round = 0; round < 4 * fields.length + 4; round++) {
      var answer = await fetch(form.action || window.location.href, {
        method: "POST", body: new FormData(form), credentials: "same-origin",
        headers: { "X-Passkey-Probe": "1", "X-CSRFToken": csrf(form) }
      });
      var type = answer.headers.get("Content-Type") || "";
      var wanted = type.indexOf("application/json") === 0 ? await answer.json() : {};
      var options = wanted.publicKey, field = wanted.field && form.querySelector("input[name='" + wanted.field + "']");
      if (!options || !field || asked[options.challenge]) break;  // asked again: the form's answer says why
      asked[options.challenge] = true;
      options.challenge = toBytes(options.challenge);
      options.allowCredentials = ids(options.allowCredentials);
      var list = given[field.name] = (given[field.name] || []);
      list.push(JSON.parse(credentialJSON(await navigator.credentials.get({ publicKey: options }))));
      field.value = JSON.stringify(list.length === 1 ? list[0] : list);
    }
    form.dataset.passkeyDone = "1";
    form.submit();
  }
  async function register(button) {
    var name = document.getElementById(button.dataset.name);
    var answer = await fetch(button.dataset.options, {
      method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": csrf(button.form) }
    });
    var begun = await answer.json(), options = begun.options;
    if (!answer.ok) throw new Error(begun.detail || JSON.stringify(begun));
    options.challenge = toBytes(options.challenge);
    options.user.id = toBytes(options.user.id);
    options.excludeCredentials = ids(options.excludeCredentials);
    var credential = await navigator.credentials.create({ publicKey: options });
    var done = await fetch(button.dataset.url, {
      method: "POST", credentials: "same-origin",
      headers: { "X-CSRFToken": csrf(button.form), "Content-Type": "application/json" },
      body: JSON.stringify({
        name: name ? name.value : "", credential: JSON.parse(credentialJSON(credential)), state: begun.state
      })
    });
    var result = await done.json();
    if (!done.ok) throw new Error(result.detail || JSON.stringify(result));
    window.location.reload();
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var signs = form.hasAttribute("data-passkey") || form.querySelector("input[type=hidden][name$=passkey]");
    if (!signs || form.dataset.passkeyDone || !window.PublicKeyCredential) return;
    event.preventDefault();
    sign(form).catch(function (error) { showError(form, why(error)); });
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-passkey-register]");
    if (!button) return;
    event.preventDefault();
    register(button).catch(function (error) {
      var box = document.getElementById("passkey-register-error");
      if (box) { box.textContent = why(error); box.hidden = false; }
    });
  });
})();
