// The @Mockable macro declaration.
