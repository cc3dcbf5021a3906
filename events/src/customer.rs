//! customer (in progress)
