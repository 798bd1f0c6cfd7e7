//! The test support itself: the fault proxy and the throwaway PostgreSQL databases.

mod fault_proxy;
mod postgres;
