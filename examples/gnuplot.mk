# gnuplot.mk - the examples' plots: gnuplot if it is installed, else a line saying the plot was
# skipped (the PASS/FAIL verdict never depends on the plot). Included by every example Makefile;
# a recipe line starts with $(GNUPLOT) where it would start with gnuplot (without gnuplot, its
# arguments go to true).
GNUPLOT = $(if $(shell command -v gnuplot 2>/dev/null),gnuplot,@echo "plot skipped: gnuplot is not installed ($@ not written)"; true)
