//! Test support for the adapter crates: a quirk run on documents alone, with no provider on
//! the network, as the engine runs it once its calls are done.

use crate::quirks::{FinishContext, Quirks, identify};
use serde_json::{Map, Value};
use social_login_domain::{ProviderIdentity, ProviderKey};
use social_login_ports::{PostBody, ProviderError};
use social_login_provider_spec::built_in_spec;

/// Who `documents` (JSON objects: the id_token claims, then the userinfo answer) say signed
/// in at the built-in provider `key`, once `quirks` finished it. No provider token comes with
/// them.
pub async fn identity_of(
    key: ProviderKey,
    quirks: &dyn Quirks,
    documents: &[Value],
    post_body: Option<&PostBody>,
) -> Result<ProviderIdentity, ProviderError> {
    let spec = built_in_spec(key).expect("a built-in key");
    let objects: Vec<Map<String, Value>> = documents
        .iter()
        .map(|document| document.as_object().expect("a JSON object").clone())
        .collect();
    let documents: Vec<&Map<String, Value>> = objects.iter().collect();
    let http = crate::http_client::test_client();
    let cx = FinishContext {
        post_body,
        scopes: &spec.scopes,
        ..FinishContext::of(&documents, &http)
    };
    identify(&spec.claims, key, quirks, cx).await
}
