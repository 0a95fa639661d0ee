# SPDX-License-Identifier: GPL-2.0-or-later
"""
pytest plugin that lets FRR's own topotest library run pnc's topotests
against the FRR build in build/root, on kernels without module support.

* FRR's diagnose_env_linux() calls module_present("mpls-router"), which
  opens /proc/modules unconditionally; kernels built without loadable
  module support have no such file.  Fall back to /sys/module.
* The harness takes daemons from the [topogen] frrdir setting of FRR's
  pytest.ini, default /usr/lib/frr.  Use $PNC_FRRDIR instead when set, so
  nothing has to be installed into /usr.
* The environment check insists on daemons that no pnc topotest starts
  (ripd, ripngd, pimd, pim6d, pbrd).  The sanitizer build leaves them
  out and names them in $PNC_FRR_UNBUILT; their absence is then no error.
"""

import os


def _install():
    try:
        import lib.topotest as topotest
        import lib.topogen as topogen
    except ImportError:
        return

    orig = topotest.module_present_linux

    def module_present_linux(module, load):
        if not os.path.exists("/proc/modules"):
            return os.path.isdir("/sys/module/" + module.replace("-", "_"))
        return orig(module, load)

    topotest.module_present_linux = module_present_linux

    frrdir = os.environ.get("PNC_FRRDIR")
    if frrdir:
        # Topogen and the environment check read tgen_defaults; routers
        # built from a topology dict fall back to their own default.
        topogen.tgen_defaults["frrdir"] = frrdir
        orig_config_frr = topotest.Router._config_frr

        def _config_frr(self, **params):
            if params.get("frrdir") is None:
                params["frrdir"] = frrdir
            return orig_config_frr(self, **params)

        topotest.Router._config_frr = _config_frr

    unbuilt = os.environ.get("PNC_FRR_UNBUILT", "").split()
    if unbuilt:
        orig_diagnose = topogen.diagnose_env_linux

        def diagnose_env_linux(rundir):
            frrdir = topogen.tgen_defaults["frrdir"]
            isfile = os.path.isfile

            def isfile_or_unbuilt(path):
                return isfile(path) or (os.path.dirname(path) == frrdir and
                                        os.path.basename(path) in unbuilt)

            os.path.isfile = isfile_or_unbuilt
            try:
                return orig_diagnose(rundir)
            finally:
                os.path.isfile = isfile

        topogen.diagnose_env_linux = diagnose_env_linux


_install()
