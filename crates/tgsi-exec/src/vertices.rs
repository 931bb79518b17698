//! [`Vertices`]: the outputs of many vertices in one allocation — vertex after vertex, a
//! fixed number of vec4s (raw words) each, as the vertex, tessellation and pipeline drivers
//! produce and consume them.
//!
//! A `Vec` per vertex cost an allocation and a free for every vertex run and every copy of
//! a vertex (a tessellated mesh names each domain point several times), which was most of
//! a vertex or tessellation run's time; one flat vector with a stride does not.
//!
//! ```
//! use tgsi_exec::Vertices;
//! let mut v = Vertices::new(2);
//! v.push(&[[1, 2, 3, 4], [5, 6, 7, 8]]);
//! v.push_zeroed()[1] = [9; 4];
//! assert_eq!(v.len(), 2);
//! assert_eq!(v[1], [[0; 4], [9; 4]]);
//! assert_eq!(v.iter().flatten().count(), 4);
//! ```

use std::ops::{Index, IndexMut};

/// Vertices of `width` vec4s each, stored contiguously: vertex `k` is
/// `words()[k·width .. (k+1)·width]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vertices {
    width: usize,
    /// Vertices held (not derived from `words` alone: a table of width 0 still counts them).
    len: usize,
    words: Vec<[u32; 4]>,
}

impl Vertices {
    /// An empty table of vertices of `width` vec4s.
    pub fn new(width: usize) -> Self {
        Vertices {
            width,
            len: 0,
            words: Vec::new(),
        }
    }

    /// An empty table with room for `vertices` vertices.
    pub fn with_capacity(width: usize, vertices: usize) -> Self {
        Vertices {
            width,
            len: 0,
            words: Vec::with_capacity(width.saturating_mul(vertices)),
        }
    }

    /// `vertices` vertices of `width` vec4s, vec4 `d` of vertex `k` being `f(k, d)`
    /// (called vertex after vertex, in order).
    pub fn from_fn(
        width: usize,
        vertices: usize,
        mut f: impl FnMut(usize, usize) -> [u32; 4],
    ) -> Self {
        let mut table = Vertices::with_capacity(width, vertices);
        for k in 0..vertices {
            for (d, v) in table.push_zeroed().iter_mut().enumerate() {
                *v = f(k, d);
            }
        }
        table
    }

    /// Vec4s per vertex.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Vertices held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no vertex is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every vertex's vec4s, vertex after vertex.
    pub fn words(&self) -> &[[u32; 4]] {
        &self.words
    }

    /// Vertex `k`, if there is one.
    pub fn get(&self, k: usize) -> Option<&[[u32; 4]]> {
        (k < self.len).then(|| &self.words[k * self.width..(k + 1) * self.width])
    }

    /// Makes room for at least `vertices` more vertices.
    pub fn reserve(&mut self, vertices: usize) {
        self.words.reserve(self.width.saturating_mul(vertices));
    }

    /// Appends a vertex.
    ///
    /// # Panics
    /// If `vertex` does not hold [`Self::width`] vec4s (a caller's bug, never the data's).
    pub fn push(&mut self, vertex: &[[u32; 4]]) {
        assert_eq!(vertex.len(), self.width, "a vertex of the wrong width");
        self.words.extend_from_slice(vertex);
        self.len += 1;
    }

    /// Appends a vertex of zeros and returns it to be filled in.
    pub fn push_zeroed(&mut self) -> &mut [[u32; 4]] {
        let start = self.words.len();
        self.words.resize(start + self.width, [0; 4]);
        self.len += 1;
        &mut self.words[start..]
    }

    /// Appends a copy of vertex `k` of `from` (nothing when `from` has no vertex `k`).
    ///
    /// # Panics
    /// If `from` is not as wide as `self`.
    pub fn push_from(&mut self, from: &Vertices, k: usize) {
        assert_eq!(from.width, self.width, "tables of different widths");
        if let Some(v) = from.get(k) {
            self.words.extend_from_slice(v);
            self.len += 1;
        }
    }

    /// Moves every vertex of `other` to the end of `self`, leaving `other` empty.
    ///
    /// # Panics
    /// If `other` is not as wide as `self`.
    pub fn append(&mut self, other: &mut Vertices) {
        assert_eq!(other.width, self.width, "tables of different widths");
        self.words.append(&mut other.words);
        self.len += std::mem::take(&mut other.len);
    }

    /// The vertices in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            table: self,
            next: 0,
        }
    }

    /// Vec4 `d` of every vertex, in order.
    pub fn column(&self, d: usize) -> impl ExactSizeIterator<Item = [u32; 4]> + '_ {
        self.iter().map(move |v| v[d])
    }
}

impl Index<usize> for Vertices {
    type Output = [[u32; 4]];

    /// Vertex `k`.
    ///
    /// # Panics
    /// If there is no vertex `k`, as a slice does.
    fn index(&self, k: usize) -> &[[u32; 4]] {
        assert!(k < self.len, "vertex {k} of {}", self.len);
        &self.words[k * self.width..(k + 1) * self.width]
    }
}

impl IndexMut<usize> for Vertices {
    fn index_mut(&mut self, k: usize) -> &mut [[u32; 4]] {
        assert!(k < self.len, "vertex {k} of {}", self.len);
        &mut self.words[k * self.width..(k + 1) * self.width]
    }
}

impl<'a> IntoIterator for &'a Vertices {
    type Item = &'a [[u32; 4]];
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The vertices of a [`Vertices`] in order ([`Vertices::iter`]).
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    table: &'a Vertices,
    next: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = &'a [[u32; 4]];

    fn next(&mut self) -> Option<&'a [[u32; 4]]> {
        let v = self.table.get(self.next)?;
        self.next += 1;
        Some(v)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.table.len - self.next;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_are_rows_of_the_flat_words() {
        let mut v = Vertices::with_capacity(3, 2);
        v.push(&[[1; 4], [2; 4], [3; 4]]);
        v.push(&[[4; 4], [5; 4], [6; 4]]);
        assert_eq!(v.len(), 2);
        assert_eq!(v.get(1), Some(&[[4; 4], [5; 4], [6; 4]][..]));
        assert_eq!(v.get(2), None);
        assert_eq!(v.words().len(), 6);
        assert_eq!(v.column(1).collect::<Vec<_>>(), [[2; 4], [5; 4]]);
        v[0][2] = [7; 4];
        assert_eq!(v.words()[2], [7; 4]);
        let mut w = Vertices::new(3);
        assert_eq!(
            Vertices::from_fn(2, 3, |k, d| [k as u32, d as u32, 0, 0])
                .column(1)
                .collect::<Vec<_>>(),
            [[0, 1, 0, 0], [1, 1, 0, 0], [2, 1, 0, 0]]
        );
        w.push_from(&v, 1);
        w.push_from(&v, 9);
        assert_eq!(w.len(), 1);
        v.append(&mut w);
        assert!(w.is_empty() && w.words().is_empty());
        assert_eq!(v.iter().map(|r| r[0][0]).collect::<Vec<_>>(), [1, 4, 4]);
    }

    #[test]
    fn vertices_without_outputs_are_still_counted() {
        let mut v = Vertices::new(0);
        v.push(&[]);
        assert!(v.push_zeroed().is_empty());
        assert_eq!(v.len(), 2);
        assert_eq!(v.iter().count(), 2);
        assert_eq!(v.get(1), Some(&[][..]));
    }

    #[test]
    #[should_panic(expected = "wrong width")]
    fn a_vertex_of_the_wrong_width_is_refused() {
        Vertices::new(2).push(&[[0; 4]]);
    }
}
