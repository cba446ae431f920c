# dense-packing.mk - the dense random periodic packing of examples/simple-shear, rigid-rotation
# and stress-probes (the README's pipeline "a random periodic packing at a pressure"): NP spheres,
# radii uniform in [0.8, 1.2] mm, rho 2500 kg/m^3, friction 0.5 (used later), placed at random
# as a gas in a periodic cube of side L (solid fraction about 0.31), then compressed
# isotropically to P without friction and with damping until every stress is within 1e-3 of P
# and the forces balance. Linear contacts kn = 2e5 N/m (kn/(p d) = 1000), dt = DT (tc/20).
# Include after the Makefile's first target, with BIN and OUT set (NP, L, P, DT may be set before:
# the defaults are the 400 spheres of simple-shear). Gives $(OUT)/gas.dem and $(OUT)/dense.dem.
NP       ?= 400
L        ?= 0.0178
P        ?= 1e5
DT       ?= 8e-7
PACK     := --random $(NP) --box 0,0,0,$(L),$(L),$(L) --periodic 0,0,0,$(L),$(L),$(L) \
            --radius-uniform 0.8e-3,1.2e-3 --friction 0.5 --seed 1
LAW      := --normal hooke --kn 2e5 --dt $(DT)
COMPRESS := --tangential none --damping restitution --local-damping 0.3 \
            --cell-stress xx=$(P),yy=$(P),zz=$(P) --until stress -n 2000000

$(OUT)/gas.dem: $(BIN)/dem-pack Makefile ../dense-packing.mk
	@mkdir -p $(OUT)
	$(BIN)/dem-pack $(PACK) > $@
$(OUT)/dense.dem: $(OUT)/gas.dem $(BIN)/dem-step
	$(BIN)/dem-step -q $(LAW) $(COMPRESS) $< > $@
