/*
 * cxx_demo - C++ on the modelled target: what the BSP must get right.
 *
 * Exercises: a static object whose constructor runs from .init_array before
 * main (and whose destructor runs at exit through __cxa_atexit), virtual
 * calls through a base class, new/delete of objects on the heap (libstdc++'s
 * operator new over newlib's malloc), a template, and a function-local
 * static.  Built with -fno-exceptions -fno-rtti (the BSP's default).
 *
 * Self-check: a shape list's total area computed through virtual calls equals
 * the same sum computed directly, the static constructor ran once, every
 * object allocated was destroyed; prints "cxx_demo: ... OK".
 */
#include <cstdint>
#include <cstdio>
#include <new>

namespace {

int live_objects; /* constructed minus destroyed */

struct Registry {
	int constructed_before_main;
	Registry() : constructed_before_main(1) { live_objects++; }
	~Registry() { live_objects--; }
};
Registry registry; /* constructed from .init_array */

struct Shape {
	Shape() { live_objects++; }
	virtual ~Shape() { live_objects--; }
	virtual uint32_t area() const = 0;
};

struct Rect : Shape {
	uint32_t w, h;
	Rect(uint32_t w_, uint32_t h_) : w(w_), h(h_) {}
	uint32_t area() const override { return w * h; }
};

struct Tri : Shape {
	uint32_t b, h;
	Tri(uint32_t b_, uint32_t h_) : b(b_), h(h_) {}
	uint32_t area() const override { return b * h / 2; }
};

template <typename T, unsigned N> struct Ring {
	T v[N];
	unsigned n = 0;
	void push(T x) { v[n++ % N] = x; }
	T sum() const
	{
		T s = 0;
		for (unsigned i = 0; i < (n < N ? n : N); i++)
			s += v[i];
		return s;
	}
};

uint32_t next_random()
{
	static uint32_t state = 12345; /* function-local static */
	state = state * 1103515245u + 12345u;
	return state >> 8;
}

} // namespace

int main()
{
	constexpr unsigned kShapes = 64;
	constexpr unsigned kRounds = 200;
	uint32_t total = 0, direct = 0;
	Ring<uint32_t, 16> recent;
	for (unsigned round = 0; round < kRounds; round++) {
		Shape *shapes[kShapes];
		for (unsigned i = 0; i < kShapes; i++) {
			uint32_t a = next_random() % 100 + 1, b = next_random() % 100 + 1;
			if (i & 1) {
				shapes[i] = new Tri(a, b);
				direct += a * b / 2;
			} else {
				shapes[i] = new Rect(a, b);
				direct += a * b;
			}
		}
		for (unsigned i = 0; i < kShapes; i++) {
			total += shapes[i]->area();
			recent.push(shapes[i]->area());
		}
		for (unsigned i = 0; i < kShapes; i++)
			delete shapes[i];
	}
	int ok = total == direct && registry.constructed_before_main == 1 && live_objects == 1;
	printf("cxx_demo: %u shapes, area %lu, recent %lu, live %d %s\n", kShapes * kRounds, (unsigned long)total,
	       (unsigned long)recent.sum(), live_objects, ok ? "OK" : "FAIL");
	return ok ? 0 : 1;
}
