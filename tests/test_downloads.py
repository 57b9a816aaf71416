"""The one downloader (``rapidbleu._base.fetch``), against a real HTTP server on 127.0.0.1 that
each test starts: a download that is interrupted, corrupted, refused, stalled or raced never
leaves a file that a later run takes as complete; archives are extracted only inside the cache;
mirrors and offline folders; the lock shared with sacreBLEU."""

from __future__ import annotations

import hashlib
import io
import multiprocessing
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from local_server import LocalServer, closed_port_url

from rapidbleu._base import fetch
from rapidbleu._base.errors import DownloadError

BODY = os.urandom(300_000)
MD5 = hashlib.md5(BODY).hexdigest()


@pytest.fixture
def server():
    with LocalServer() as s:
        yield s


@pytest.fixture(autouse=True)
def _quick(monkeypatch):
    """One retry's wait is 1 s: tests that retry keep to two attempts and a short timeout."""
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_RETRIES", "2")
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_TIMEOUT", "2")
    monkeypatch.delenv("RAPIDBLEU_DOWNLOAD_MIRROR", raising=False)


def _left(folder: Path) -> list[str]:
    """What a download left in ``folder``, lock files aside."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(".lock"))


def _tar(members: dict[str, bytes], **links: str) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for name, target in links.items():
            info = tarfile.TarInfo(name)
            info.type = tarfile.SYMTYPE
            info.linkname = target
            tar.addfile(info)
    return buf.getvalue()


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


# -- a good download -------------------------------------------------------------------------


def test_download_checks_the_sum_and_is_used_from_the_cache_afterwards(server, tmp_path):
    url = server.add("/set.bin", BODY)
    dest = tmp_path / "wmt" / "raw" / "wmt.set.bin"
    assert fetch.download(url, str(dest), md5=MD5) == str(dest)
    assert dest.read_bytes() == BODY
    assert _left(dest.parent) == ["wmt.set.bin"]  # no .part file left
    fetch.download(url, str(dest), md5=MD5)
    assert server.requests("/set.bin") == 1  # the cached file is used as it is


def test_archives_are_extracted_into_the_folder(server, tmp_path):
    archive = _tar({"sets/a.sgm": b"A\n", "sets/sub/b.txt": b"B\n"})
    zipped = _zip({"z/c.tsv": b"C\tD\n"})
    raw = tmp_path / "raw"
    fetch.download(server.add("/x.tar.gz", archive), str(raw / "t.x.tar.gz"), extract_to=str(raw))
    fetch.download(server.add("/y.zip", zipped), str(raw / "t.y.zip"), extract_to=str(raw))
    assert (raw / "sets" / "a.sgm").read_bytes() == b"A\n"
    assert (raw / "sets" / "sub" / "b.txt").read_bytes() == b"B\n"
    assert (raw / "z" / "c.tsv").read_bytes() == b"C\tD\n"
    assert _left(raw) == ["sets", "t.x.tar.gz", "t.y.zip", "z"]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".extract-")]


def test_a_failed_request_is_retried(server, tmp_path):
    url = server.add("/flaky", BODY, fail_first=1)
    fetch.download(url, str(tmp_path / "f"), md5=MD5)
    assert server.requests("/flaky") == 2
    assert (tmp_path / "f").read_bytes() == BODY


# -- failures leave nothing a later run trusts ----------------------------------------------


def test_an_interrupted_transfer_leaves_nothing_and_the_next_run_downloads(server, tmp_path):
    url = server.add("/cut", BODY, cut_after=1000)
    dest = tmp_path / "cut"
    with pytest.raises(DownloadError) as info:
        fetch.download(url, str(dest))  # no MD5 to check: the announced length catches it
    assert url in str(info.value)
    assert str(dest) in str(info.value)
    assert _left(tmp_path) == []
    assert server.requests("/cut") == 2  # retried once
    server.routes["/cut"].cut_after = None
    fetch.download(url, str(dest))
    assert dest.read_bytes() == BODY


def test_a_wrong_checksum_names_both_sums_and_leaves_nothing(server, tmp_path):
    url = server.add("/bad", b"not the test set")
    with pytest.raises(DownloadError, match=f"expected {MD5}") as info:
        fetch.download(url, str(tmp_path / "bad"), md5=MD5, what="test set wmt99")
    assert str(info.value).startswith("test set wmt99: ")
    assert hashlib.md5(b"not the test set").hexdigest() in str(info.value)
    assert _left(tmp_path) == []


def test_an_http_error_is_not_retried(server, tmp_path):
    url = server.add("/gone", status=404)
    with pytest.raises(DownloadError, match="404"):
        fetch.download(url, str(tmp_path / "gone"))
    assert server.requests("/gone") == 1
    assert _left(tmp_path) == []


def test_a_stalled_server_times_out(server, tmp_path, monkeypatch):
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_TIMEOUT", "0.3")
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_RETRIES", "1")
    url = server.add("/slow", BODY, stall=3.0)
    with pytest.raises(DownloadError, match="timed out"):
        fetch.download(url, str(tmp_path / "slow"))
    assert _left(tmp_path) == []


def test_offline_is_a_short_clear_error(tmp_path):
    url = closed_port_url("/wmt14.tgz")
    with pytest.raises(DownloadError) as info:
        fetch.download(url, str(tmp_path / "wmt14.tgz"), what="test set wmt14")
    msg = str(info.value)
    for part in ("Connection refused", url, "RAPIDBLEU_DOWNLOAD_MIRROR"):
        assert part in msg
    assert "\n" not in msg


@pytest.mark.parametrize(
    ("archive", "name"),
    [
        (_tar({"../evil.txt": b"x"}), "x.tar.gz"),
        (_tar({"/evil-abs-tar.txt": b"x"}), "x.tar.gz"),
        (_tar({"ok.txt": b"x"}, link="/etc/passwd"), "x.tar.gz"),
        (_zip({"../../evil.txt": b"x"}), "x.zip"),
        (_zip({"/evil-abs.txt": b"x"}), "x.zip"),
    ],
    ids=["tar-dotdot", "tar-absolute", "tar-symlink", "zip-dotdot", "zip-absolute"],
)
def test_archive_members_outside_the_cache_are_refused(server, tmp_path, archive, name):
    raw = tmp_path / "cache" / "set" / "raw"
    url = server.add("/" + name, archive)
    with pytest.raises(DownloadError, match="refused to extract"):
        fetch.download(url, str(raw / name), extract_to=str(raw))
    assert _left(raw) == []  # nothing extracted, no archive kept
    assert sorted(p.name for p in tmp_path.rglob("*") if "evil" in p.name) == []


def test_a_corrupt_archive_is_not_kept(server, tmp_path):
    raw = tmp_path / "raw"
    url = server.add("/broken.tgz", b"\x1f\x8b this is no gzip")
    with pytest.raises(DownloadError, match="cannot extract"):
        fetch.download(url, str(raw / "s.broken.tgz"), extract_to=str(raw))
    assert _left(raw) == []


# -- mirrors, offline folders ------------------------------------------------------------------


def test_a_mirror_folder_serves_offline(tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "newstest.tgz").write_bytes(_tar({"dev/a.txt": b"A\n"}))
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_MIRROR", str(mirror))
    raw = tmp_path / "cache" / "raw"
    fetch.download(closed_port_url("/data/newstest.tgz"), str(raw / "s.newstest.tgz"), extract_to=str(raw))
    assert (raw / "dev" / "a.txt").read_bytes() == b"A\n"


def test_a_mirror_url_replaces_the_origin(server, tmp_path, monkeypatch):
    server.add("/mirror/set.bin", BODY)
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_MIRROR", server.url("/mirror/"))
    fetch.download("https://origin.invalid/path/set.bin", str(tmp_path / "set.bin"), md5=MD5)
    assert server.requests("/mirror/set.bin") == 1
    missing = tmp_path / "missing.bin"
    with pytest.raises(DownloadError, match="404"):
        fetch.download("https://origin.invalid/path/missing.bin", str(missing))


def test_bad_settings_are_named(tmp_path, monkeypatch):
    monkeypatch.setenv("RAPIDBLEU_DOWNLOAD_RETRIES", "0")
    with pytest.raises(DownloadError, match="RAPIDBLEU_DOWNLOAD_RETRIES='0'"):
        fetch.download("http://127.0.0.1:9/x", str(tmp_path / "x"))


def test_cache_dir_is_read_at_each_call(tmp_path, monkeypatch):
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "a"))
    assert fetch.cache_dir() == str(tmp_path / "a")
    monkeypatch.delenv("SACREBLEU")
    assert fetch.cache_dir() == str(Path("~").expanduser() / ".sacrebleu")


# -- two processes at once ---------------------------------------------------------------------


def _download_in_child(url: str, dest: str, md5: str) -> int:
    os.environ["RAPIDBLEU_DOWNLOAD_RETRIES"] = "1"
    fetch.download(url, dest, md5=md5)
    return Path(dest).stat().st_size


def _sacrebleu_download_in_child(url: str, dest: str, md5: str) -> int:
    from sacrebleu.utils import download_file

    download_file(url, dest, expected_md5=md5)
    return Path(dest).stat().st_size


@pytest.mark.parametrize("other", ["rapidbleu", "sacrebleu"])
def test_two_processes_download_once(server, tmp_path, other):
    """Two processes ask for one file at once (rapidbleu and rapidbleu, or rapidbleu and
    sacreBLEU, which locks the same ``<dest>.lock``): one download, both get the whole file."""
    if other == "sacrebleu":
        pytest.importorskip("sacrebleu")
    url = server.add("/big", BODY, delay_each=0.05)  # about 0.25 s of transfer
    dest = str(tmp_path / "big")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        second = _download_in_child if other == "rapidbleu" else _sacrebleu_download_in_child
        jobs = [pool.apply_async(_download_in_child, (url, dest, MD5)), pool.apply_async(second, (url, dest, MD5))]
        sizes = [j.get(timeout=60) for j in jobs]
    assert sizes == [len(BODY), len(BODY)]
    assert server.requests("/big") == 1
    assert Path(dest).read_bytes() == BODY


# -- a progress bar on a terminal --------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_a_progress_bar_on_a_terminal_only(server, tmp_path):
    import fcntl
    import pty
    import struct
    import termios

    url = server.add("/bar", BODY)
    code = (
        "import sys; from rapidbleu._base import fetch; "
        f"fetch.download({url!r}, sys.argv[1]); print('done', file=sys.stderr)"
    )
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # a terminal of 80 columns
    proc = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "a")], stderr=child)
    os.close(child)
    seen = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=60)
    os.close(main)
    assert proc.returncode == 0
    assert b"B/s" in seen or b"kB" in seen or b"%|" in seen, seen
    piped = subprocess.run([sys.executable, "-c", code, str(tmp_path / "b")], capture_output=True, check=True)
    assert piped.stderr == b"done\n"  # no bar where stderr is not a terminal
