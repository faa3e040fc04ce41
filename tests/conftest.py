"""Shared pytest configuration."""


def pytest_addoption(parser):
    parser.addoption(
        "--update-goldens", action="store_true", default=False,
        help="rewrite tests/cases/compile/*.expected from the current compiler output instead "
             "of comparing; review the diff as UX before committing")
