//! The two standards-only simulated providers, what a provider configured by an operator
//! (not one of the eight built-in ones) is tested against:
//!
//! - `/oidc` ([`Provider::StandardOidc`]): OpenID Connect Discovery, the code flow with
//!   S256 PKCE, Basic or body client authentication, RS256 id_tokens with the standard
//!   claims, userinfo (RFC 6750), JWKS and RFC 7009 revocation. Everything by the dialect
//!   and the engine's defaults; its hooks only lie when [`StandardKnobs`] say so.
//! - `/oauth2` ([`Provider::StandardOauth2`]): the same without OpenID Connect (no
//!   discovery, no id_token), and a user document of its own nested shape:
//!   `{"data": {"id": 583231, "attributes": {"mail", "mail_confirmed": "true", "display",
//!   "avatar": {"url"}}}}` (`mail` only with the `email` scope; a numeric id when the
//!   user's id is a number).

pub(crate) mod knobs;

pub use knobs::StandardKnobs;

use crate::flow::has_scope;
use crate::hooks::{Cx, Document, SimHooks};
use crate::tokens::IssuedToken;
use serde_json::{Map, json};

pub struct StandardOidc;

impl SimHooks for StandardOidc {
    fn userinfo(&self, cx: &Cx<'_>, issued: &IssuedToken, _: Option<&str>) -> Document {
        let sub = cx.sim.standard_knobs.get().userinfo_sub;
        let mut body = json!({ "sub": sub.as_deref().unwrap_or(&issued.user.id) });
        if let Some(object) = body.as_object_mut() {
            object.extend(crate::claims::profile_claims(&issued.user, &issued.scopes));
        }
        Ok(body)
    }

    fn announced_issuer(&self, cx: &Cx<'_>) -> String {
        let announced = cx.sim.standard_knobs.get().announced_issuer;
        announced.unwrap_or_else(|| self.issuer(cx))
    }
}

pub struct StandardOauth2;

impl SimHooks for StandardOauth2 {
    fn userinfo(&self, _: &Cx<'_>, issued: &IssuedToken, _: Option<&str>) -> Document {
        let user = &issued.user;
        let mut attributes = Map::new();
        if has_scope(&issued.scopes, "email")
            && let Some(email) = &user.email
        {
            attributes.insert("mail".into(), json!(email));
            attributes.insert(
                "mail_confirmed".into(),
                json!(user.email_verified.to_string()),
            );
        }
        attributes.insert(
            "display".into(),
            json!(user.name.as_deref().unwrap_or(&user.login)),
        );
        if let Some(url) = &user.avatar_url {
            attributes.insert("avatar".into(), json!({ "url": url }));
        }
        let id = user
            .id
            .parse::<u64>()
            .map_or_else(|_| json!(user.id), |n| json!(n));
        Ok(json!({ "data": { "id": id, "attributes": attributes } }))
    }
}
