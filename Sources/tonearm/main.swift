import PlayerCore
print(TonearmVersion.current)
