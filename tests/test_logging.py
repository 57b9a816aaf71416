"""rapidbleu's logger obeys sacreBLEU's: a script that silences the ``sacrebleu`` logger (by
level or ``disabled``) silences rapidbleu's messages too, and rapidbleu's own level still
applies.  Every test runs once per backend (``conftest.backend``)."""

import logging

import pytest

import rapidbleu

pytestmark = pytest.mark.usefixtures("backend")


@pytest.fixture
def sacre_logger():
    """The ``sacrebleu`` logger, enabled at the start (other libraries' logging setup, e.g.
    ``distributed``'s ``dictConfig``, disables the loggers that exist when they configure) and
    restored after."""
    logs = [logging.getLogger(name) for name in ("sacrebleu", "rapidbleu")]
    saved = [(log.level, log.disabled) for log in logs]
    for log in logs:
        log.setLevel(logging.NOTSET)
        log.disabled = False
    yield logs[0]
    for log, (level, disabled) in zip(logs, saved, strict=False):
        log.setLevel(level)
        log.disabled = disabled


def test_sacrebleu_logger_silences_rapidbleu(caplog, sacre_logger):
    with caplog.at_level(logging.WARNING):
        rapidbleu.BLEU().sentence_score("a b", ["a b"])
    assert any("effective_order" in r.getMessage() for r in caplog.records)
    caplog.clear()
    sacre_logger.setLevel(logging.ERROR)
    with caplog.at_level(logging.WARNING):
        rapidbleu.BLEU().sentence_score("a b", ["a b"])
    assert not caplog.records
    sacre_logger.setLevel(logging.NOTSET)
    sacre_logger.disabled = True
    with caplog.at_level(logging.WARNING):
        rapidbleu.BLEU().sentence_score("a b", ["a b"])
    assert not caplog.records


def test_rapidbleu_logger_level_still_applies(caplog, sacre_logger):
    log = logging.getLogger("rapidbleu")
    old = log.level
    log.setLevel(logging.ERROR)
    try:
        with caplog.at_level(logging.WARNING, logger="root"):
            rapidbleu.BLEU().sentence_score("a b", ["a b"])
        assert not [r for r in caplog.records if r.name == "rapidbleu"]
    finally:
        log.setLevel(old)
