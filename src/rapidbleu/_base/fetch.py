"""The one downloader and cache: sacreBLEU's test sets and the SentencePiece models both use it.

The cache is sacreBLEU's folder, ``$SACREBLEU`` or ``~/.sacrebleu`` (read at each call, so a
process may change it), laid out as sacreBLEU lays it out, so either tool serves the other's
downloads offline.  A download:

1. takes a lock on ``<dest>.lock`` (``portalocker``, the library and the file sacreBLEU locks,
   so two processes of either tool asking for one file at once download it once);
2. returns at once when ``dest`` is there and not empty (as sacreBLEU: what is in the cache is
   used as it is, offline too);
3. streams the response into a ``.part-*`` file beside ``dest`` (a progress bar on stderr when
   it is a terminal), with a timeout on every socket operation and up to
   ``RAPIDBLEU_DOWNLOAD_RETRIES`` attempts (default 3, waits of 1, 2, 4 ... seconds between
   them; an HTTP 4xx is not retried), checks the length the server announced and the MD5 sum;
4. extracts an archive (``.tar.gz``, ``.tgz``, ``.tar``, ``.zip``) into a temporary folder inside
   the cache, refusing any member that is absolute, climbs out with ``..``, or is a link or a
   device, then moves the members into ``extract_to``;
5. only then renames the ``.part`` file to ``dest``.  A transfer that is interrupted, refused,
   stalls or fails its checksum leaves no ``dest``, so no later run (of rapidbleu or sacreBLEU)
   takes it as complete; the error is a :class:`~rapidbleu._base.errors.DownloadError` naming
   the URL, the cache path and what to do, never ``sys.exit``.

Mirrors and offline networks: ``RAPIDBLEU_DOWNLOAD_MIRROR`` names a base URL (``http://``,
``https://``, ``file://``) or a local folder; each file is then fetched from there under its
URL's last path component (``<mirror>/<basename of the URL>``) instead of from its origin.
``RAPIDBLEU_DOWNLOAD_TIMEOUT`` sets the timeout in seconds (default 60).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import IO, Any

from .errors import DownloadError
from .log import logger

__all__ = ["cache_dir", "download", "extract", "md5sum", "source_url"]

#: Environment variables (documented in the module docstring and docs/test-sets.md).
MIRROR_ENV = "RAPIDBLEU_DOWNLOAD_MIRROR"
RETRIES_ENV = "RAPIDBLEU_DOWNLOAD_RETRIES"
TIMEOUT_ENV = "RAPIDBLEU_DOWNLOAD_TIMEOUT"

#: Archive endings that are extracted (sacreBLEU's, plus plain ``.tar``).
_TAR_ENDINGS = (".tar.gz", ".tgz", ".tar")
_ZIP_ENDINGS = (".zip",)

#: How long to wait for another process's lock on the same file, in seconds.
LOCK_TIMEOUT = 600.0

_BLOCK = 1 << 16


def cache_dir() -> str:
    """sacreBLEU's data folder, ``$SACREBLEU`` or ``~/.sacrebleu``, read at each call."""
    return os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


def md5sum(path: str) -> str:
    """The hexadecimal MD5 sum of the file at ``path``.

    Raises:
        OSError: the file cannot be read.
    """
    digest = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def source_url(url: str) -> str:
    """Where ``url`` is fetched from: itself, or ``<mirror>/<basename>`` when
    ``RAPIDBLEU_DOWNLOAD_MIRROR`` names a mirror (a base URL or a local folder)."""
    mirror = os.environ.get(MIRROR_ENV)
    if not mirror:
        return url
    name = url.rstrip("/").rsplit("/", 1)[-1]
    if "://" in mirror:
        return mirror.rstrip("/") + "/" + name
    return os.path.join(mirror, name)


def _env_number(name: str, default: float, kind: type = float) -> Any:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        number = kind(value)
    except ValueError:
        number = -1
    if number < (1 if kind is int else 0) or number != number:
        raise DownloadError(f"{name}={value!r}: expected a {'whole number >= 1' if kind is int else 'number > 0'}")
    return number


@contextlib.contextmanager
def _locked(dest: str) -> Iterator[None]:
    try:
        import portalocker
    except ImportError as exc:  # a declared dependency: only a broken install lacks it
        raise ImportError("rapidbleu's downloads need portalocker: pip install portalocker") from exc
    try:
        with portalocker.Lock(dest + ".lock", timeout=LOCK_TIMEOUT):
            yield
    except portalocker.exceptions.LockException as exc:
        raise DownloadError(
            f"another process has held the lock {dest}.lock for {LOCK_TIMEOUT:.0f} s; if none is downloading, "
            "delete the .lock file and try again"
        ) from exc


def _open(source: str, timeout: float) -> tuple[IO[bytes], int | None]:
    """The response (or local file) and its announced length (None if unknown)."""
    if "://" not in source:
        f = open(source, "rb")  # noqa: SIM115 -- closed by the caller
        return f, os.fstat(f.fileno()).st_size
    import urllib.request

    request = urllib.request.Request(source, headers={"User-Agent": "rapidbleu"})
    resp = urllib.request.urlopen(request, timeout=timeout)
    length = resp.headers.get("Content-Length") if hasattr(resp, "headers") else None
    return resp, int(length) if length and length.isdigit() else None


def _progress(total: int | None, name: str) -> Any:
    """A tqdm bar on stderr when it is a terminal, else None."""
    if not (hasattr(sys.stderr, "isatty") and sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc=name, leave=False, file=sys.stderr)


def _fetch_once(source: str, part: str, timeout: float) -> None:
    """One attempt: ``source`` streamed into ``part`` (truncated first).

    Raises:
        OSError (``urllib.error.URLError``, ``TimeoutError``, ...): the transfer failed;
        ValueError: fewer or more bytes than announced (an interrupted transfer).
    """
    resp, length = _open(source, timeout)
    received = 0
    bar = _progress(length, os.path.basename(part).split(".part-")[0] or "download")
    try:
        with resp, open(part, "wb") as out:
            while True:
                block = resp.read(_BLOCK)
                if not block:
                    break
                out.write(block)
                received += len(block)
                if bar is not None:
                    bar.update(len(block))
    finally:
        if bar is not None:
            bar.close()
    if length is not None and received != length:
        raise ValueError(f"the transfer ended after {received} of {length} bytes")


def _is_client_error(exc: BaseException) -> bool:
    code = getattr(exc, "code", None)
    return isinstance(code, int) and 400 <= code < 500


def _unsafe_member(name: str) -> bool:
    normalized = name.replace("\\", "/")
    parts = [p for p in normalized.split("/") if p not in ("", ".")]
    return normalized.startswith("/") or (len(normalized) > 1 and normalized[1] == ":") or ".." in parts


def extract(archive: str, dest_dir: str) -> None:
    """Extract ``archive`` (tar, tar.gz, zip) into ``dest_dir``, through a temporary folder
    inside ``dest_dir``'s parent; a file that is no archive is left alone (as sacreBLEU).

    Raises:
        DownloadError: a member is absolute, climbs out with ``..``, or is a link, device or
            FIFO (nothing of the archive is then written to ``dest_dir``); the archive is corrupt.
    """
    lower = archive.lower()
    if not lower.endswith(_TAR_ENDINGS + _ZIP_ENDINGS):
        return
    os.makedirs(dest_dir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".extract-", dir=os.path.dirname(os.path.abspath(dest_dir)))
    try:
        try:
            if lower.endswith(_ZIP_ENDINGS):
                import zipfile

                with zipfile.ZipFile(archive) as z:
                    bad = [i.filename for i in z.infolist() if _unsafe_member(i.filename)]
                    if bad:
                        raise DownloadError(
                            f"{archive}: refused to extract {bad[0]!r}: it would be written outside {dest_dir}"
                        )
                    z.extractall(tmp)
            else:
                import tarfile

                with tarfile.open(archive) as tar:
                    members = tar.getmembers()
                    for m in members:
                        if _unsafe_member(m.name):
                            raise DownloadError(
                                f"{archive}: refused to extract {m.name!r}: it would be written outside {dest_dir}"
                            )
                        if not (m.isfile() or m.isdir()):
                            raise DownloadError(f"{archive}: refused to extract {m.name!r}: a link or special file")
                    if hasattr(tarfile, "data_filter"):
                        tar.extractall(tmp, members=members, filter="data")
                    else:  # Python < 3.10.12: the members were checked above
                        tar.extractall(tmp, members=members)
        except DownloadError:
            raise
        except Exception as exc:  # tarfile.TarError, zipfile.BadZipFile, OSError, EOFError
            raise DownloadError(f"{archive}: cannot extract ({type(exc).__name__}: {exc})") from exc
        for folder, _, files in os.walk(tmp):
            rel = os.path.relpath(folder, tmp)
            target = dest_dir if rel == "." else os.path.join(dest_dir, rel)
            os.makedirs(target, exist_ok=True)
            for name in files:
                os.replace(os.path.join(folder, name), os.path.join(target, name))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def download(url: str, dest: str, *, md5: str | None = None, extract_to: str | None = None, what: str = "") -> str:
    """Make sure ``dest`` holds the file at ``url`` (see the module docstring), extracted into
    ``extract_to`` when it is an archive; returns ``dest``.

    ``md5``: the expected hexadecimal MD5 sum (None: not checked).  ``what``: how the error
    names the file (``"test set wmt14"``).

    Raises:
        DownloadError: offline, an HTTP error, an interrupted or stalled transfer after the
            retries, a wrong MD5 sum, an unsafe archive, a cache that cannot be written; nothing
            is left at ``dest``.
    """
    folder = os.path.dirname(os.path.abspath(dest))
    label = f"{what}: " if what else ""
    source = source_url(url)
    hint = (
        f"download {url} yourself and save it as {dest}, set {MIRROR_ENV} to a folder or URL that holds "
        f"{os.path.basename(url)}, or check the network"
    )
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise DownloadError(
            f"{label}cannot create the cache folder {folder} ({exc}); set SACREBLEU to a writable folder"
        ) from exc
    retries = _env_number(RETRIES_ENV, 3, int)
    timeout = _env_number(TIMEOUT_ENV, 60.0)
    with _locked(dest):
        if os.path.isfile(dest) and os.path.getsize(dest) > 0:
            return dest
        fd, part = tempfile.mkstemp(prefix=os.path.basename(dest) + ".part-", dir=folder)
        os.close(fd)
        try:
            last: BaseException | None = None
            for attempt in range(retries):
                if attempt:
                    time.sleep(min(2.0 ** (attempt - 1), 30.0))
                logger.info("Downloading %s to %s%s", source, dest, f" (attempt {attempt + 1})" if attempt else "")
                try:
                    _fetch_once(source, part, timeout)
                    last = None
                    break
                except (OSError, ValueError, EOFError) as exc:
                    last = exc
                    if _is_client_error(exc) or "://" not in source:
                        break
            if last is not None:
                raise DownloadError(
                    f"{label}downloading {source} to {dest} failed ({type(last).__name__}: {last}); {hint}"
                ) from last
            if md5 is not None:
                got = md5sum(part)
                if got != md5:
                    raise DownloadError(
                        f"{label}the MD5 sum of {source} is {got}, expected {md5}: the file was not saved to {dest} "
                        "(the download was corrupted, or the file changed on the server)"
                    )
            if extract_to is not None:
                extract(_archive_view(part, dest), extract_to)
            os.replace(part, dest)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(part)
            with contextlib.suppress(OSError):
                os.unlink(_archive_link(part, dest))
    return dest


def _archive_link(part: str, dest: str) -> str:
    return part + "." + os.path.basename(dest)


def _archive_view(part: str, dest: str) -> str:
    """The ``.part`` file under a name with ``dest``'s ending, so that :func:`extract` knows the
    archive's kind (a hard link where the file system allows, else a copy)."""
    view = _archive_link(part, dest)
    try:
        os.link(part, view)
    except OSError:
        shutil.copyfile(part, view)
    return view
