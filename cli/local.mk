# cli: see Makefile.am
