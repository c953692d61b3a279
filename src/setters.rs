//! `setters!`: the chaining setters of the public option structs. The options are
//! `#[non_exhaustive]`, so a program outside this crate builds them from their
//! `Default` and sets a field per call; a setting added later breaks no caller. A setter
//! sets; it does not check (each stage's `validate` does).
//!
//! A crate-private macro at the first stage, so every stage can generate its options'
//! setters: `crate::setters::setters!(DemandOptions { growth_pct: is: f64; ... });`.

/// `pub fn field(self, value: T) -> Self` on `Type` for each `field: is: T` (`impl Into<T>`
/// for `into: T`, text and paths); for an optional field, `field: Some(T)` (`SomeInto(T)`)
/// sets `Some(value)` and `field: Maybe(T)` takes a value or an `Option` of one;
/// `field: list: T` takes any list of values. Numbers take their own type, so `.hosts(3)`
/// and `.iops(20_000.0)` need no suffix. `Type<'a>` takes one lifetime.
macro_rules! setters {
    (@one $name:ident $field:ident Some ($inner:ty)) => {
        #[doc = concat!("Sets [`", stringify!($name), "::", stringify!($field), "`] to `Some(value)`.")]
        #[must_use]
        pub fn $field(mut self, value: $inner) -> Self {
            self.$field = Some(value);
            self
        }
    };
    (@one $name:ident $field:ident SomeInto ($inner:ty)) => {
        #[doc = concat!("Sets [`", stringify!($name), "::", stringify!($field), "`] to `Some(value)`.")]
        #[must_use]
        pub fn $field(mut self, value: impl Into<$inner>) -> Self {
            self.$field = Some(value.into());
            self
        }
    };
    (@one $name:ident $field:ident Maybe ($inner:ty)) => {
        #[doc = concat!("Sets [`", stringify!($name), "::", stringify!($field), "`]: a value, `Some` of one or `None`.")]
        #[must_use]
        pub fn $field(mut self, value: impl Into<Option<$inner>>) -> Self {
            self.$field = value.into();
            self
        }
    };
    (@one $name:ident $field:ident is: $ty:ty) => {
        #[doc = concat!("Sets [`", stringify!($name), "::", stringify!($field), "`].")]
        #[must_use]
        pub fn $field(mut self, value: $ty) -> Self {
            self.$field = value;
            self
        }
    };
    (@one $name:ident $field:ident into: $ty:ty) => {
        #[doc = concat!("Sets [`", stringify!($name), "::", stringify!($field), "`].")]
        #[must_use]
        pub fn $field(mut self, value: impl Into<$ty>) -> Self {
            self.$field = value.into();
            self
        }
    };
    (@one $name:ident $field:ident list: $ty:ty) => {
        #[doc = concat!("Sets [`", stringify!($name), "::", stringify!($field), "`] to these values.")]
        #[must_use]
        pub fn $field(mut self, values: impl IntoIterator<Item = impl Into<$ty>>) -> Self {
            self.$field = values.into_iter().map(Into::into).collect();
            self
        }
    };
    ($name:ident $(<$lt:lifetime>)? { $($field:ident: $kind:tt $(($inner:ty))? $(: $ty:ty)?;)* }) => {
        impl $(<$lt>)? $name $(<$lt>)? {
            $($crate::setters::setters!(@one $name $field $kind $(($inner))? $(: $ty)?);)*
        }
    };
}

pub(crate) use setters;
