package after

const cacheLineSize = 128
