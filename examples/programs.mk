# programs.mk - where an example finds the dem programs: the checkout's bin/ (built first with the
# top-level make), or, in a copy of the installed examples (make install), the installed programs,
# whose directory make install writes into installed.mk beside this file.
-include ../installed.mk
ifdef DEM_INSTALLED_BIN
BIN            := $(DEM_INSTALLED_BIN)
BUILD_PROGRAMS := @:
else
BIN            := $(TOP)/bin
BUILD_PROGRAMS := $(MAKE) -C $(TOP)
endif
