/* stress.h - the stress carried by the contacts of one frame (dem-stress): the Love-Weber average
 * stress of an assembly, the representative stress of each particle, principal values and
 * invariants, and the forces on the walls.
 *
 * Sign convention: compression positive, as everywhere in dem (formats/dem-stream.md §2).
 * A contact record holds the force f on particle i; the force on j (or on the wall) is -f.
 *
 * Per particle (Hanley 2019, eq 22, with the sign turned for compression):
 *     sigma^p = -(1/V^p) sum_{c of p} x^r_c (x) f^p_c,   V^p = 4/3 pi r^3,
 * where x^r_c runs from the centre of p to the contact point and f^p_c is the force on p.
 * The contact point is the middle of the overlap on the line of centres, x_i - (r_i - delta/2) n
 * (n from j to i), the point dem-step applies contact forces at, for particle pairs and walls.
 * (Hanley's eq 22 without the minus sign is the tension-positive stress: for a particle pressed
 * on both sides x^r and f point in opposite directions, so x^r (x) f is negative.)
 *
 * Assembly (Hanley 2019, eq 23): sigma = (1/V) sum_p V^p sigma^p. Summing the two ends of a
 * particle pair, -(x^r_i (x) f) - (x^r_j (x) (-f)) = (x_c - x_j' - x_c + x_i) (x) f, gives
 *     sigma = (1/V) [ sum_pairs l (x) f  -  sum_wall-contacts x^r (x) f_wall ],
 *     l = x_i - (x_j + H s): the branch vector from j (its periodic image) to i,
 * so for a pair the sign is + with this l (the - of the tension-positive form belongs to the
 * branch vector from i to j). A wall contact is half a pair: its branch vector is x^r, from the
 * particle centre to the contact point, with the force the wall exerts on the particle, so that
 * the assembly stress is exactly the volume-weighted sum of the particle stresses, and in
 * equilibrium without body forces it equals the traction on the boundary: -(1/V) sum over wall
 * contacts of x_c (x) f_wall (a platen force F over area A gives sigma_zz = F/A).
 *
 * Reported tensors are the symmetric part (l (x) f with a tangential f is not symmetric; in
 * equilibrium the torque balance of each particle makes the sums symmetric). */
#ifndef DEM_STRESS_H
#define DEM_STRESS_H

#include "analysis/analysis.h"
#include "core/error.h"
#include "io/system.h"
#include "core/vec.h"

/* ---- symmetric 3x3 tensors ------------------------------------------------------------------ */
/* Eigenvalues of the symmetric part of a by cyclic Jacobi rotations, in descending order
 * ev[0] >= ev[1] >= ev[2]; if vecs is not NULL its columns are the unit eigenvectors (a
 * right-handed orthonormal basis). Accurate to a few ulps of the largest |eigenvalue| for any
 * scale, including repeated eigenvalues; a non-finite entry gives nan eigenvalues. */
void dem_sym3_eigen(dem_mat3 a, double ev[3], dem_mat3 *vecs);

/* (a + a^T) / 2 */
dem_mat3 dem_m3_sym(dem_mat3 a);

/* The logarithmic (Hencky) strain of a deformation gradient F, EXTENSION POSITIVE (as L and F):
 * 1/2 ln(F F^T), in the lab frame. A rigid rotation gives zero; its trace is ln det F, the
 * volumetric strain; for F = diag(1 + e) it is ln(1 + e), e to first order. nan if det F <= 0. */
dem_mat3 dem_hencky_strain(dem_mat3 f);

/* The strain of a frame's periodic cell, EXTENSION POSITIVE (as L and F, unlike the stresses):
 * e = dem_hencky_strain(F) of the cell's deformation gradient since its strain reference, and
 * the volumetric strain ev = ln det F (trace e up to round-off), computed from det F so that it
 * follows the cell's volume, V = V_ref det F. Every entry is nan when the frame has no periodic
 * cell (flags 0): walls and boxes give a volume but no reference to measure strain from. */
typedef struct {
    dem_mat3 e; /* - */
    double ev;  /* - */
} dem_strain;

void dem_cell_strain(const dem_cell *c, dem_strain *out);

/* Invariants of a stress tensor (compression positive): the mean stress p = trace/3, the von
 * Mises deviator measure q = sqrt(3 J2) with J2 = 1/2 s:s, s = sigma - p I (for an axisymmetric
 * state with s2 = s3 this is q = s1 - s3), and the principal stresses s1 >= s2 >= s3. */
typedef struct {
    double p, q;
    double s1, s2, s3;
} dem_stress_invariants;

void dem_stress_invariants_of(dem_mat3 sigma, dem_stress_invariants *inv);
/* p and q only (no eigenvalues). */
double dem_stress_p(dem_mat3 sigma);
double dem_stress_q(dem_mat3 sigma);

/* ---- assembly stress ------------------------------------------------------------------------ */
/* The contact point of a contact record (the middle of the overlap on the line of centres):
 * x_i - (r_i - delta/2) n, for particle pairs and walls alike. pi is particle i. */
dem_vec3 dem_contact_point(const dem_particle *pi, const dem_contact *c);
/* One contact record's term of the Love-Weber sum, added to *sum (dem_stress_assembly's, in the
 * same operations): +l (x) f for a pair (l = x_i - x_j's image), -(c - x_i) (x) f for a wall.
 * pi: the record's particle i. Fails on a pair naming a particle not in the frame. */
DEM_MUST_CHECK dem_status dem_stress_add_contact(const dem_system *s, const dem_id_index *ix, const dem_contact *c,
                                  const dem_particle *pi, dem_mat3 *sum, dem_error *err);
/* sym(sum) / volume: the stress of a Love-Weber sum over its volume. */
dem_mat3 dem_stress_of_sum(dem_mat3 sum, double volume);

typedef struct {
    dem_mat3 sigma;             /* symmetric, compression positive, Pa */
    dem_mat3 sigma_kinetic;     /* the kinetic part included in sigma (0 without it), Pa */
    double volume;              /* m^3 */
    dem_volume_source source;   /* DEM_VOLUME_BOX (the user's box), _CELL or _WALLS */
    size_t particles;           /* counted: all, or centred in the box */
    size_t contacts;            /* particle-particle records with overlap > 0 counted */
    size_t wall_contacts;       /* particle-wall records with overlap > 0 counted */
    double coordination;        /* Z of coordination.h over the particles centred in the box (or all) */
    double solid_volume;        /* the spheres' volume inside the box (overlap_volume.h; all of it
                                 * without a box), overlaps between spheres ignored, m^3 */
    double void_ratio;          /* volume / solid_volume - 1, -; nan without solid volume */
} dem_stress;

/* Love-Weber stress of a frame over a control volume:
 *   box != NULL: the box; only contact records whose contact point lies in it are summed, and
 *                the particles whose centre lies in it are counted (coordination, kinetic
 *                part); the solid volume is the exact part of every sphere inside the box;
 *   else the periodic cell (V = |det H|, every contact), else the box of six axis-aligned plane
 *   walls (dem_walls_box, every contact).
 * Every contact record is summed (records with overlap <= 0 carry no force unless a model
 * puts one there). kinetic: add (1/V) sum_p m_p v'_p (x) v'_p over the counted particles, v' the
 * velocity minus their mass-weighted mean (the momentum flux of the velocity fluctuations,
 * compression positive: a gas of free particles has p = 2/3 E'_kin / V; De Klerk et al. 2022
 * Fig. 12b). ix must be built for s. Fails (DEM_ERR_VALUE) when the frame gives no volume and
 * box is NULL. */
DEM_MUST_CHECK dem_status dem_stress_assembly(const dem_system *s, const dem_id_index *ix, const dem_aabb *box, int kinetic,
                               dem_stress *out, dem_error *err);

/* Representative stress of every particle (Hanley 2019, eq 22, compression positive, symmetric
 * part), sig[k] for s->particles[k], with V^p = 4/3 pi r^3. Sum over k of V^p_k sig[k] equals
 * V times the assembly stress (without box, without kinetic part) to round-off. ix built for s. */
DEM_MUST_CHECK dem_status dem_stress_particles(const dem_system *s, const dem_id_index *ix, dem_mat3 *sig, dem_error *err);

/* ---- walls ---------------------------------------------------------------------------------- */
typedef struct {
    dem_vec3 force;   /* exerted by the particles on the wall (the WALL record's f), N */
    double area;      /* of the face, when the wall is a face of the box of six axis-aligned
                       * walls (dem_walls_box); nan otherwise, m^2 */
    double pressure;  /* -force . n / area, compression positive; nan without an area, Pa */
} dem_wall_load;

/* out[k] for s->walls[k]. */
void dem_wall_loads(const dem_system *s, dem_wall_load *out);

/* ---- element tests (dem-stress --triaxial, --shear) -------------------------------------------
 * The measures of a laboratory element test, in soil mechanics' convention: stresses AND strains
 * COMPRESSION POSITIVE (unlike dem_strain: eps = -e).
 *   triaxial along axis a (b, c the lateral axes): sa = sigma_aa, sr = (sigma_bb + sigma_cc)/2,
 *     q_axial = sa - sr (negative in extension), eps_a the axial strain, eps_q = 2/3 (eps_a -
 *     (eps_b + eps_c)/2) the deviatoric strain conjugate to q;
 *   shear of direction i on the planes normal to j (dem-step --cell-rate ij=R): tau = -sigma_ij,
 *     of the sign of the shear it resists (positive while gamma grows under R > 0, so tau/sigma_n
 *     > 0), sigma_n = sigma_jj, gamma = the displacement along i per height along j;
 *   both: eps_v = eps_x + eps_y + eps_z (compression positive: dilation is negative), sin_phi =
 *     (s1 - s3)/(s1 + s3) of the principal stresses (the mobilised friction angle of a cohesionless
 *     material; nan when s1 + s3 <= 0), phi_mob = asin(sin_phi) in degrees.
 * Strains along an axis the periodic cell spans come from its deformation gradient F since its
 * strain reference (Hencky: eps_kk = -1/2 ln(F F^T)_kk; eps_v = -ln det F when the cell spans all
 * three; gamma = F_ij / F_jj); along another axis from the innermost pair of axis-aligned plane
 * walls across it, against their positions in a reference frame (eps_kk = -ln(gap/gap_ref);
 * gamma = the relative displacement along i of the two walls across j since the reference, over
 * their gap now); across an inner cylinder 0 (its radius is fixed); nan where neither exists. */
typedef struct {
    int axis;             /* triaxial: the axial direction 0..2; -1: none */
    int shear_i, shear_j; /* shear: direction i, plane normal j; -1: none */
} dem_element_test;

/* The walls' state in the reference frame (the first frame of a run's output). */
typedef struct {
    int lo[3], hi[3];           /* the innermost plane walls across each axis (-1: none) */
    double gap[3];              /* their distance, m (nan: not both) */
    dem_vec3 lo_point[3], hi_point[3];
    size_t nwalls;
} dem_element_ref;

typedef struct {
    double sa, sr, q_axial, eps_a, eps_q;  /* Pa, Pa, Pa, -, -; nan without axis */
    double tau, sigma_n, tau_sigma, gamma; /* Pa, Pa, -, -; nan without shear */
    double eps_v, sin_phi, phi_mob;        /* -, -, degrees */
} dem_element;

void dem_element_reference(const dem_system *s, dem_element_ref *ref);
/* sigma: the frame's stress (dem_stress_assembly), compression positive. */
void dem_element_measure(const dem_system *s, dem_mat3 sigma, const dem_element_test *t, const dem_element_ref *ref,
                         dem_element *out);

#endif
