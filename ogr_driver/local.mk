# ogr_driver: see Makefile.am
