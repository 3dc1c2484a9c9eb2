//! Whole-CLI golden tests (trycmd): each `tests/cmd/<name>.toml` fixes arguments, exit code,
//! stdout and stderr.

#[test]
fn cli() {
    trycmd::TestCases::new().case("tests/cmd/*.toml");
}
