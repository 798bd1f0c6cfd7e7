//! The browser sign-in page of the interactive simulator (the demo): on an authorize
//! request that names no user, show the seeded users and a form to type a new identity;
//! choosing one repeats the same request with `sim_user`, which every authorize honours.

use crate::html::escape;
use crate::lock::locked;
use crate::state::SimState;
use axum::http::Uri;
use axum::response::{Html, IntoResponse, Response};

/// The page for the authorize request at `uri` (its full path and query).
pub fn render(sim: &SimState, uri: &Uri) -> Response {
    let query = uri.query().unwrap_or("");
    let here = format!("{}?{}", uri.path(), query);
    let users = locked(&sim.directory).all().to_vec();
    let mut choices = String::new();
    for user in &users {
        let label = user.name.as_deref().unwrap_or(&user.login);
        let email = user.email.as_deref().unwrap_or("no email");
        let verified = if user.email_verified {
            "verified"
        } else {
            "unverified"
        };
        choices.push_str(&format!(
            "<li><a class=\"user\" data-user=\"{id}\" href=\"{here}&amp;sim_user={id}\">{label}</a> \
             <small>{email} ({verified})</small></li>",
            id = escape(&user.id),
            here = escape(&here),
            label = escape(label),
            email = escape(email),
        ));
    }
    Html(
        PAGE.replace("{{CHOICES}}", &choices)
            .replace("{{HERE}}", &escape(&here)),
    )
    .into_response()
}

const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Simulated identity provider</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}
li{margin:.4rem 0}fieldset{margin-top:1.5rem}label{display:block;margin:.4rem 0}</style></head>
<body>
<h1>Simulated identity provider</h1>
<p>This stands in for the real provider. Choose who signs in.</p>
<ul id="users">{{CHOICES}}</ul>
<form id="new-identity"><fieldset><legend>Or type an identity</legend>
<label>Name <input name="name" id="sim-name" value="Ada Lovelace"></label>
<label>Email <input name="email" id="sim-email" type="email" value="ada@example.com"></label>
<label><input name="verified" id="sim-verified" type="checkbox" checked> email verified</label>
<button type="submit" id="sim-continue">Continue</button></fieldset></form>
<script>
document.getElementById('new-identity').addEventListener('submit', async (event) => {
  event.preventDefault();
  const email = document.getElementById('sim-email').value.trim();
  const name = document.getElementById('sim-name').value.trim();
  const verified = document.getElementById('sim-verified').checked;
  // A stable id per email, so typing the same identity again is the same account.
  let hash = 0;
  for (const c of email.toLowerCase()) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  const id = String(100000 + hash);
  const login = (email.split('@')[0] || 'user').replace(/[^a-zA-Z0-9-]/g, '') || 'user';
  const user = {id, login: login + '-' + id, name: name || null,
    email: email || null, email_verified: verified,
    emails: email ? [{email, primary: true, verified, visibility: 'private'}] : []};
  await fetch('/_control/identity', {method: 'POST',
    headers: {'content-type': 'application/json'}, body: JSON.stringify(user)});
  window.location = '{{HERE}}'.replaceAll('&amp;', '&') + '&sim_user=' + encodeURIComponent(id);
});
</script>
</body></html>
"#;
