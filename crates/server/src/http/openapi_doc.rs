//! The served OpenAPI document, made valid where the generator leaves it short: OpenAPI 3.1
//! requires a `description` on every response object, and utoipa leaves out an empty one
//! (every `(status = 200, body = …)` of the handlers): each such response is described by
//! its status's reason phrase. And operation ids must be unique, which one handler
//! documented for several methods (the relay's) is not: each of its operations gets its
//! method appended.

use axum::http::StatusCode;
use serde_json::Value;

/// The document `utoipa` rendered, completed.
pub fn render(openapi: &utoipa::openapi::OpenApi) -> String {
    let mut document = serde_json::to_value(openapi).expect("the OpenAPI document serialises");
    describe_every_response(&mut document);
    one_id_per_operation(&mut document);
    document.to_string()
}

/// `operationId`s that several operations share become `<id>_<method>`.
fn one_id_per_operation(document: &mut Value) {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    let mut seen = std::collections::HashMap::<String, usize>::new();
    for item in paths.values().filter_map(Value::as_object) {
        for operation in item.values() {
            if let Some(id) = operation.get("operationId").and_then(Value::as_str) {
                *seen.entry(id.to_owned()).or_default() += 1;
            }
        }
    }
    let mut given = std::collections::HashSet::<String>::new();
    for item in paths.values_mut().filter_map(Value::as_object_mut) {
        for (method, operation) in item.iter_mut() {
            let Some(id) = operation.get("operationId").and_then(Value::as_str) else {
                continue;
            };
            let mut unique = match seen.get(id).is_some_and(|count| *count > 1) {
                true => format!("{id}_{method}"),
                false => id.to_owned(),
            };
            // Two handlers of one name and method elsewhere: a number tells them apart.
            let base = unique.clone();
            let mut n = 2;
            while !given.insert(unique.clone()) {
                unique = format!("{base}_{n}");
                n += 1;
            }
            operation["operationId"] = unique.into();
        }
    }
}

/// Gives every response object of every operation without a `description` its status's
/// reason phrase (`"OK"`, `"No Content"`); a reference (`$ref`) is left alone.
fn describe_every_response(document: &mut Value) {
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    let operations = paths
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut());
    for operation in operations {
        let Some(responses) = operation
            .get_mut("responses")
            .and_then(Value::as_object_mut)
        else {
            continue;
        };
        for (status, response) in responses.iter_mut() {
            let Some(response) = response.as_object_mut() else {
                continue;
            };
            if response.contains_key("$ref") || response.contains_key("description") {
                continue;
            }
            response.insert("description".into(), reason(status).into());
        }
    }
}

fn reason(status: &str) -> &'static str {
    status
        .parse::<u16>()
        .ok()
        .and_then(|code| StatusCode::from_u16(code).ok())
        .and_then(|code| code.canonical_reason())
        .unwrap_or("Response")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_response_without_words_gets_its_reason_phrase_and_others_keep_theirs() {
        let mut document = json!({"paths": {"/x": {"get": {"responses": {
            "200": {"content": {}},
            "204": {"description": "deleted"},
            "404": {"$ref": "#/components/responses/NotFound"},
            "default": {}
        }}}}});
        describe_every_response(&mut document);
        let responses = &document["paths"]["/x"]["get"]["responses"];
        assert_eq!(responses["200"]["description"], "OK");
        assert_eq!(responses["204"]["description"], "deleted");
        assert!(responses["404"].get("description").is_none());
        assert_eq!(responses["default"]["description"], "Response");
    }

    #[test]
    fn operations_sharing_an_id_get_their_method_appended_and_the_others_keep_theirs() {
        let mut document = json!({"paths": {
            "/relay/{p}": {"get": {"operationId": "relay"}, "post": {"operationId": "relay"}},
            "/me": {"get": {"operationId": "me"}}
        }});
        one_id_per_operation(&mut document);
        let paths = &document["paths"];
        assert_eq!(paths["/relay/{p}"]["get"]["operationId"], "relay_get");
        assert_eq!(paths["/relay/{p}"]["post"]["operationId"], "relay_post");
        assert_eq!(paths["/me"]["get"]["operationId"], "me");

        let mut same_method = json!({"paths": {
            "/a": {"get": {"operationId": "export"}},
            "/b": {"get": {"operationId": "export"}}
        }});
        one_id_per_operation(&mut same_method);
        let paths = &same_method["paths"];
        assert_ne!(
            paths["/a"]["get"]["operationId"],
            paths["/b"]["get"]["operationId"]
        );
    }
}
