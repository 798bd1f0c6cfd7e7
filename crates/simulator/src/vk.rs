//! VK ID's `device_id`, which no dialect row can say: the approval's redirect carries it
//! beside the code, and a refresh must send it back ("код подтверждения code, строка
//! состояния state и идентификатор устройства device_id возвращаются в URL перенаправления";
//! VKCOM/vkid-web-sdk `refreshToken`). The code exchange does not check it here.

use crate::authorize::AuthorizeQuery;
use crate::claims::Subject;
use crate::config::Provider;
use crate::flow::TokenParams;
use crate::hooks::{Checked, Cx, Fields, SimHooks};

/// The simulated VK.
pub const VK: Provider = Provider::simulated("vk");

/// The device every simulated approval names.
pub const DEVICE_ID: &str = "sim-device-7c1f";

/// VK's hooks.
pub struct Vk;

impl SimHooks for Vk {
    fn approval(&self, _: &Cx<'_>, _: &AuthorizeQuery, _: &Subject<'_>) -> Fields {
        vec![("device_id", DEVICE_ID.to_owned())]
    }

    /// A refresh without the approval's `device_id` is refused.
    fn token_checks(&self, cx: &Cx<'_>, params: &TokenParams) -> Checked {
        let refresh = params.grant_type.as_deref() == Some("refresh_token");
        if refresh && params.device_id.as_deref() != Some(DEVICE_ID) {
            let errors = &cx.dialect.token.errors;
            return Err(cx.dialect.envelope.refusal(&errors.bad_code, true));
        }
        Ok(())
    }
}
