# qgis: the QGIS Processing provider (Python, QGIS 3.22 API).  Installed per
# user, into QGIS's default profile, by `make install-qgis` (not by
# `make install`, which usually runs as root); QGIS_PROFILE_DIR=... picks
# another profile.  It runs the installed exactgeo tool.
QGIS_PROFILE_DIR = $(HOME)/.local/share/QGIS/QGIS3/profiles/default
QGIS_PLUGIN_FILES = \
	qgis/exactgeo/__init__.py qgis/exactgeo/metadata.txt \
	qgis/exactgeo/plugin.py qgis/exactgeo/provider.py \
	qgis/exactgeo/algorithms.py qgis/exactgeo/inputs.py \
	qgis/exactgeo/tool.py
EXTRA_DIST += $(QGIS_PLUGIN_FILES)

# qgis_process, bypassing Debian 12's wrapper, whose /etc/default/qgis
# passes --noversioncheck, an option qgis_process.bin rejects.
QGIS_PROCESS = `command -v qgis_process.bin || command -v qgis_process`

install-qgis:
	$(MKDIR_P) "$(QGIS_PROFILE_DIR)/python/plugins/exactgeo"
	for f in $(QGIS_PLUGIN_FILES); do \
	  $(INSTALL_DATA) "$(srcdir)/$$f" "$(QGIS_PROFILE_DIR)/python/plugins/exactgeo/" || exit 1; \
	done
	echo "TOOL = '$(bindir)/exactgeo'" > "$(QGIS_PROFILE_DIR)/python/plugins/exactgeo/_installed.py"
	@if command -v qgis_process.bin >/dev/null || command -v qgis_process >/dev/null; then \
	  profiles=`dirname "$(QGIS_PROFILE_DIR)"`; \
	  QT_QPA_PLATFORM=offscreen XDG_DATA_HOME=`dirname "$$(dirname "$$(dirname "$$profiles")")"` \
	    $(QGIS_PROCESS) plugins enable exactgeo >/dev/null 2>&1 && \
	    echo "install-qgis: plugin exactgeo enabled in $(QGIS_PROFILE_DIR)" || \
	    echo "install-qgis: enable 'exactgeo' in QGIS's Plugin Manager"; \
	else \
	  echo "install-qgis: QGIS not found; enable 'exactgeo' in QGIS's Plugin Manager"; \
	fi

uninstall-qgis:
	rm -rf "$(QGIS_PROFILE_DIR)/python/plugins/exactgeo"

.PHONY: install-qgis uninstall-qgis
