//! The simulated Microsoft and LinkedIn: the quirks and checks an adapter test cannot
//! reach on its own.

mod linkedin;
mod linkedin_token;
mod microsoft;
mod microsoft_token;
mod support;
