//! The Understand step (placeholder; replaced below).
