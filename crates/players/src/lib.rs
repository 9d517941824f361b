//! Players: everything that chooses moves (filled by its own issue).
