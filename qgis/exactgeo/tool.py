"""Running the exactgeo tool from Processing: where it is, its progress.

The algorithms run the tool as a subprocess rather than through the GDAL
driver: the tool is the reference (the driver and the provider then give
the same answers by construction), a crash cannot take QGIS down, and
cancelling is killing the process, which the tool survives without
leaving a half-written output.
"""
import json
import os
import re
import shutil
import subprocess

from qgis.core import QgsBlockingProcess, QgsProcessingException

try:  # written by `make install-qgis`: the tool installed with the plugin
    from ._installed import TOOL as _INSTALLED
except ImportError:
    _INSTALLED = None

_PERCENT = re.compile(rb'(\d+)')


def program():
    """The exactgeo program: $EXACTGEO_TOOL, else the one installed with
    this plugin, else the first on PATH."""
    env = os.environ.get('EXACTGEO_TOOL')
    if env:
        return env
    if _INSTALLED and os.access(_INSTALLED, os.X_OK):
        return _INSTALLED
    return shutil.which('exactgeo') or 'exactgeo'


def _check_found(prog):
    if not (os.path.isabs(prog) and os.access(prog, os.X_OK)) \
            and shutil.which(prog) is None:
        raise QgsProcessingException(
            'exactgeo: the tool was not found (install it, or set '
            'EXACTGEO_TOOL to its path)')


def operations():
    """The tool's operation table (`exactgeo --operations`), a list of
    dicts: name, title, summary, contract, dim, inputs (role, element,
    noun, accepts, geometry, field), kinds, fields.  Raises
    QgsProcessingException when the tool cannot be run or answers
    something else."""
    prog = program()
    _check_found(prog)
    try:
        out = subprocess.run([prog, '--operations'], capture_output=True,
                             timeout=60, check=True).stdout
        return json.loads(out.decode('utf-8'))['operations']
    except (OSError, subprocess.SubprocessError, ValueError, KeyError) as e:
        raise QgsProcessingException(
            'exactgeo: cannot list the operations of {} ({}): {}'.format(
                prog, '--operations', e))


def _rename(text, names):
    """text with each temporary path of names (path: the user's name for
    it) replaced, "PATH, layer 'L'" as a whole."""
    for path, label in names.items():
        text = re.sub(re.escape(path) + r"(, layer '[^']*')?", label, text)
    return text


def run(args, feedback, start=0.0, span=100.0, names=None):
    """Runs `exactgeo ARGS...`; GDAL's -progress output ("0...10...20")
    is mapped to start..start+span percent of the algorithm's progress.
    The tool's warnings go to the log as warnings as they come, its
    other messages (its error) as information at its end, each once and
    with the temporary paths of names replaced (see _rename).  On failure
    the QgsProcessingException raised says only that the tool failed:
    QGIS prints an exception's text three times (qgis_process: its
    message log, its error line, its final message), and
    feedback.reportError twice (its line and the message log), so the
    tool's own words go through pushInfo, printed once.  Cancelling
    raises too."""
    prog = program()
    _check_found(prog)
    names = names or {}
    lines = []          # the tool's other stderr lines: its error
    pending = [b'', '']

    def on_stdout(data):
        # The dots arrive in pieces: keep an unfinished number for later.
        text = pending[0] + bytes(data)
        cut = len(text)
        while cut > 0 and text[cut - 1:cut].isdigit():
            cut -= 1
        pending[0] = text[cut:]
        for m in _PERCENT.finditer(text[:cut]):
            pct = min(100, int(m.group(1)))
            feedback.setProgress(start + span * pct / 100.0)

    def on_stderr(data):
        # whole lines only: a warning may arrive in pieces
        text = pending[1] + bytes(data).decode('utf-8', 'replace')
        done, _, pending[1] = text.rpartition('\n')
        for line in done.split('\n') if done else []:
            line = _rename(line, names)
            if line.startswith('exactgeo: warning: '):
                feedback.pushWarning(line)
            elif line.strip():
                lines.append(line)

    feedback.pushCommandInfo(' '.join([prog] + [_quote(a) for a in args]))
    proc = QgsBlockingProcess(prog, args)
    proc.setStdOutHandler(on_stdout)
    proc.setStdErrHandler(on_stderr)
    rc = proc.run(feedback)
    if pending[1].strip():
        lines.append(_rename(pending[1], names))
    if feedback.isCanceled():
        raise QgsProcessingException('exactgeo: cancelled')
    for line in lines:
        feedback.pushInfo(line)
    if rc != 0:
        raise QgsProcessingException(
            'exactgeo {} failed (exit status {}){}'.format(
                args[0], rc, ': see its message above' if lines else ''))


def _quote(a):
    return a if re.fullmatch(r'[\w@%+=:,./-]+', a) else "'" + \
        a.replace("'", "'\\''") + "'"
